import { RefundRequest, type Connection } from '@loyalty-gateway/core';
import '../http/fastify-types.js';
import { refundKey } from '../webhooks/idempotency-keys.js';
import { scopeOf } from '../webhooks/to-engine-command.js';
import { IDEMPOTENCY_TTL_MS } from '../webhooks/webhook-pipeline.js';
import type { CheckoutDeps, CheckoutEndpoint } from './checkout-endpoint.js';
import { refundResultJsonSchema } from './checkout-response-schemas.js';
import { REFUND_ALREADY_PROCESSED, refundResult } from './checkout-results.js';
import { readCheckoutBody } from './read-checkout-body.js';
import { toMinor } from './to-minor.js';

/** Has this connection's refund id been reversed (by this endpoint or a sale.refunded webhook)? */
async function seenRefund({ cache, onCacheError }: CheckoutDeps, key: string): Promise<boolean> {
  try {
    return (await cache.get(key)) !== null;
  } catch (error) {
    onCacheError(error, 'get');
    return false;
  }
}

function rememberRefund({ cache, onCacheError }: CheckoutDeps, key: string): void {
  // Not awaited: the reversal is committed; a lost cache write only costs a ledger lookup later.
  cache.set(key, '1', IDEMPOTENCY_TTL_MS).catch((error: unknown) => onCacheError(error, 'set'));
}

const reverseCommand = (connection: Connection, body: RefundRequest) => ({
  ...scopeOf(connection),
  transactionId: body.externalTransactionId,
  refundId: body.refundTransactionId,
  amountMinor: toMinor(body.refundAmount),
});

/**
 * POST /v1/refund: the direct equivalent of a `sale.refunded` webhook, in ONE idempotency space
 * with it: the same engine call (reverse, refund id = refundTransactionId) and the same 24-hour
 * cache key (refundKey), written only after the engine committed. A repeat is ALREADY_PROCESSED
 * with 0/0, from the cache or, when the cache has forgotten, from the ledger.
 */
export const refundEndpoint: CheckoutEndpoint = {
  feature: 'refund',
  path: '/v1/refund',
  responseSchema: refundResultJsonSchema,
  handler: (deps) => async (request) => {
    const body = readCheckoutBody(RefundRequest, request.body);
    const connection = request.connection!;
    request.audit = { eventType: 'refund', transactionId: body.externalTransactionId, refundId: body.refundTransactionId };
    const key = refundKey(connection, body.refundTransactionId);
    if (await seenRefund(deps, key)) {
      request.audit.outcome = REFUND_ALREADY_PROCESSED.status;
      return REFUND_ALREADY_PROCESSED;
    }
    const result = await deps.engine.reverse(reverseCommand(connection, body));
    rememberRefund(deps, key);
    request.audit.outcome = result.status;
    return refundResult(result);
  },
};
