import {
  EngineUnavailableError,
  GatewayError,
  saleFingerprint,
  type Connection,
  type EarnCommand,
  type FeaturedEnvelope,
  type IdempotencyCache,
  type LoyaltyEngine,
  type WebhookResult,
} from '@loyalty-gateway/core';
import { traceEngineFailures } from '../journal/trace-engine-failures.js';
import { eventKey, refundKey, saleKey } from './idempotency-keys.js';
import { promiseOf } from '../engine-client/wrap-engine-calls.js';
import { refundFingerprint } from './refund-fingerprint.js';
import { toEarnCommand, toReverseCommand, toWithdrawCommand } from './to-engine-command.js';
import {
  DUPLICATE_REFUND,
  DUPLICATE_SALE,
  IGNORED_VOID,
  NOT_PREVIEWED,
  conflictResult,
  earnResult,
  raisedResult,
  reverseResult,
  withdrawResult,
} from './webhook-results.js';

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

/** The cache value of a key that only records "seen" (eventIds; sales cached before fingerprints). */
const SEEN = '1';

/** A sale key's cache value: the sale's fingerprint and when it was received (`fp1:<fingerprint>:<ISO time>`). */
const saleMark = (fingerprint: string, receivedAt: string) => `fp1:${fingerprint}:${receivedAt}`;
const readSaleMark = (value: string | null): { fingerprint: string; receivedAt: string } | null => {
  if (value === null || !value.startsWith('fp1:')) return null;
  const at = value.indexOf(':', 4);
  return at === -1 ? null : { fingerprint: value.slice(4, at), receivedAt: value.slice(at + 1) };
};

/** A transaction id received again with another sale: who, which, and when the first came. */
export interface SaleConflict {
  connection: Connection;
  transactionId: string;
  firstReceivedAt: string;
  /** Where it was found: the 24-hour cache or the ledger. */
  source: 'cache' | 'ledger';
}

export interface WebhookPipelineOptions {
  engine: LoyaltyEngine;
  cache: IdempotencyCache;
  /** A cache failure is reported and treated as a miss: the ledger still decides. */
  onCacheError: (error: unknown, operation: 'get' | 'set') => void;
  /** Told of every idempotency conflict (logged and counted by the caller). */
  onConflict?: ((conflict: SaleConflict) => void) | undefined;
}

/** A WebhookResult; on a featured adapter's refunds.listed also what was given back (never on the generic door). */
export type PipelineResult = WebhookResult & { refundsWithdrawn?: string[]; pointsRestored?: number };

/** How a door's events are applied. */
export interface PipelineOptions {
  /**
   * A sale already recorded arriving again with a larger total is an order that grew after
   * payment, paid in full (featured adapters declaring `paidOrdersGrow`): it earns on the added
   * money (LoyaltyEngine.raiseSale) instead of being answered as an idempotency conflict.
   */
  raise?: boolean;
  /** A featured door (or its reconciliation): a conflict's warning speaks of the vendor's order, not of ids to change. */
  featured?: boolean;
  /**
   * A preview (POST /v1/earn/preview, the adapter preview): the same steps, nothing kept — the
   * cache is read but never written, a sale goes to LoyaltyEngine.previewEarn (nothing committed),
   * a conflict is answered but neither raised nor reported, and a refund or a vendor's list of
   * reversals is answered NOT_PREVIEWED without reaching the engine.
   */
  preview?: boolean;
}

export type WebhookPipeline = (connection: Connection, envelope: FeaturedEnvelope, options?: PipelineOptions) => Promise<PipelineResult>;

/** An unavailable engine is the spec's retryable 500 (engine_unavailable_retry); other failures pass. */
function retryWhenUnavailable(error: unknown): never {
  if (error instanceof EngineUnavailableError) throw new GatewayError('engine_unavailable_retry', { cause: error });
  throw error;
}

/**
 * A validated envelope from an authenticated connection → WebhookResult. Idempotency: the
 * 24-hour cache is read first (a hit answers `duplicate` without touching the engine) and written
 * only after the engine committed, so the ledger, never the cache, decides what counts. A refund
 * id's entry holds its refund's fingerprint: only an identical retry is answered from the cache,
 * so a reused id gets the ledger's answer whether or not the cache still holds it.
 */
export function createWebhookPipeline(options: WebhookPipelineOptions): WebhookPipeline {
  const { cache, onCacheError, onConflict } = options;
  // Every engine call notes why it failed (which operation, what happened, how long): the journal's story of a 5xx.
  const engine = traceEngineFailures(options.engine);

  /** Both keys of an event in one cache call (one Redis round trip and command, not two). */
  const readBoth = (first: string, second: string): Promise<Array<string | null>> =>
    cache.getMany([first, second]).catch((error: unknown) => {
      onCacheError(error, 'get');
      return [null, null];
    });

  /**
   * A refund already answered: its id is cached with this very fingerprint, or the id is new
   * to the cache and the eventId was seen (a vendor retry that regenerated its refund id).
   */
  async function refundSeen(byRefund: string, fingerprint: string, byEvent: string): Promise<boolean> {
    const [refund = null, event = null] = await readBoth(byRefund, byEvent);
    return refund === null ? event !== null : refund === fingerprint;
  }

  function remember(key: string, value: string): void {
    // Not awaited: the event is committed; a lost cache write only costs a ledger lookup later.
    cache.set(key, value, IDEMPOTENCY_TTL_MS).catch((error: unknown) => onCacheError(error, 'set'));
  }

  /** An engine call's answer, an unavailable engine's failure turned into the retry the spec names. */
  function call<T>(operation: () => Promise<T>): Promise<T> {
    return promiseOf(operation).then(undefined, retryWhenUnavailable);
  }

  /**
   * A transaction id recorded with another sale: with `raise`, an order that grew earns on what it
   * grew by (its new fingerprint then answers its repeats); otherwise, or when it did not grow
   * (a smaller total, another currency), the conflict is reported and nothing applied.
   */
  async function conflictOrRaise(
    conflict: SaleConflict,
    command: EarnCommand,
    fingerprint: string,
    options: PipelineOptions,
  ): Promise<WebhookResult> {
    if (options.raise === true) {
      const raised = await call(() => engine.raiseSale(command));
      if (raised.status === 'RAISED') {
        remember(saleKey(conflict.connection, conflict.transactionId), saleMark(fingerprint, new Date().toISOString()));
        return raisedResult(raised, conflict.transactionId);
      }
    }
    onConflict?.(conflict);
    return conflictResult(conflict.transactionId, conflict.firstReceivedAt, options.featured === true);
  }

  return async function handle(connection, envelope, options = {}) {
    if (envelope.store.id !== connection.storeId) throw new GatewayError('store_mismatch');
    const byEvent = eventKey(connection, envelope.eventType, envelope.eventId);
    const preview = options.preview === true;
    switch (envelope.eventType) {
      case 'sale.voided':
        return IGNORED_VOID;
      case 'sale.completed': {
        const transactionId = envelope.transaction.id;
        const bySale = saleKey(connection, transactionId);
        const command = toEarnCommand(connection, envelope);
        const [sold = null, evented = null] = await readBoth(bySale, byEvent);
        if (sold !== null) {
          const mark = readSaleMark(sold);
          if (mark === null) return DUPLICATE_SALE;
          const fingerprint = saleFingerprint(command.transaction);
          if (mark.fingerprint === fingerprint) return DUPLICATE_SALE;
          if (preview) return conflictResult(transactionId, mark.receivedAt, options.featured === true);
          return conflictOrRaise(
            { connection, transactionId, firstReceivedAt: mark.receivedAt, source: 'cache' },
            command,
            fingerprint,
            options,
          );
        }
        if (evented !== null) return DUPLICATE_SALE;
        if (preview) return earnResult(await call(() => engine.previewEarn(command)), transactionId, options.featured === true);
        const outcome = await call(() => engine.earn(command));
        if (outcome.conflict) {
          const conflict: SaleConflict = { connection, transactionId, firstReceivedAt: outcome.conflict.firstReceivedAt, source: 'ledger' };
          if (options.raise === true) return conflictOrRaise(conflict, command, saleFingerprint(command.transaction), options);
          onConflict?.(conflict);
        } else {
          // The first sale under this key (or its identical repeat): its fingerprint answers later
          // repeats. The engine computes it for the ledger and gives it; computed here only when an
          // engine does not send it.
          remember(bySale, saleMark(outcome.fingerprint ?? saleFingerprint(command.transaction), new Date().toISOString()));
          remember(byEvent, SEEN);
        }
        return earnResult(outcome, transactionId, options.featured === true);
      }
      case 'sale.refunded': {
        if (preview) return NOT_PREVIEWED;
        const command = toReverseCommand(connection, envelope);
        const byRefund = refundKey(connection, command.refundId);
        const fingerprint = refundFingerprint(command);
        if (await refundSeen(byRefund, fingerprint, byEvent)) return DUPLICATE_REFUND;
        // A refund_id_reused refusal throws here: nothing is cached, the original fingerprint stays.
        const result = await call(() => engine.reverse(command));
        remember(byRefund, fingerprint);
        remember(byEvent, SEEN);
        return reverseResult(result);
      }
      case 'refunds.listed':
        if (preview) return NOT_PREVIEWED;
        // No cache: only the ledger knows which reversals of the order it holds; a repeat withdraws nothing.
        return withdrawResult(await call(() => engine.withdrawRefunds(toWithdrawCommand(connection, envelope))));
    }
  };
}
