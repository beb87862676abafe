import {
  EngineUnavailableError,
  GatewayError,
  type Connection,
  type Envelope,
  type IdempotencyCache,
  type LoyaltyEngine,
  type WebhookResult,
} from '@loyalty-gateway/core';
import { eventKey, refundKey, saleKey } from './idempotency-keys.js';
import { toEarnCommand, toReverseCommand } from './to-engine-command.js';
import { DUPLICATE_REFUND, DUPLICATE_SALE, IGNORED_VOID, earnResult, reverseResult } from './webhook-results.js';

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

export interface WebhookPipelineOptions {
  engine: LoyaltyEngine;
  cache: IdempotencyCache;
  /** A cache failure is reported and treated as a miss: the ledger still decides. */
  onCacheError: (error: unknown, operation: 'get' | 'set') => void;
}

export type WebhookPipeline = (connection: Connection, envelope: Envelope) => Promise<WebhookResult>;

/**
 * A validated envelope from an authenticated connection → WebhookResult. Idempotency: the
 * 24-hour cache is read first (a hit answers `duplicate` without touching the engine) and written
 * only after the engine committed, so the ledger, never the cache, decides what counts.
 */
export function createWebhookPipeline(options: WebhookPipelineOptions): WebhookPipeline {
  const { engine, cache, onCacheError } = options;

  const read = (key: string) =>
    cache.get(key).catch((error: unknown) => {
      onCacheError(error, 'get');
      return null;
    });

  async function seen(first: string, second: string): Promise<boolean> {
    const [a, b] = await Promise.all([read(first), read(second)]);
    return a !== null || b !== null;
  }

  function remember(first: string, second: string): void {
    // Not awaited: the event is committed; a lost cache write only costs a ledger lookup later.
    for (const key of [first, second]) cache.set(key, '1', IDEMPOTENCY_TTL_MS).catch((error: unknown) => onCacheError(error, 'set'));
  }

  async function call<T>(operation: () => Promise<T>): Promise<T> {
    try {
      return await operation();
    } catch (error) {
      if (error instanceof EngineUnavailableError) throw new GatewayError('engine_unavailable_retry', { cause: error });
      throw error;
    }
  }

  return async function handle(connection, envelope) {
    if (envelope.store.id !== connection.storeId) throw new GatewayError('store_mismatch');
    const byEvent = eventKey(connection, envelope.eventType, envelope.eventId);
    switch (envelope.eventType) {
      case 'sale.voided':
        return IGNORED_VOID;
      case 'sale.completed': {
        const bySale = saleKey(connection, envelope.transaction.id);
        if (await seen(bySale, byEvent)) return DUPLICATE_SALE;
        const outcome = await call(() => engine.earn(toEarnCommand(connection, envelope)));
        remember(bySale, byEvent);
        return earnResult(outcome);
      }
      case 'sale.refunded': {
        const byRefund = refundKey(connection, envelope.refund.id);
        if (await seen(byRefund, byEvent)) return DUPLICATE_REFUND;
        const result = await call(() => engine.reverse(toReverseCommand(connection, envelope)));
        remember(byRefund, byEvent);
        return reverseResult(result);
      }
    }
  };
}
