import { RefundRequest, type Connection } from '@loyalty-gateway/core';
import '../http/fastify-types.js';
import { refundKey } from '../webhooks/idempotency-keys.js';
import { refundFingerprint } from '../webhooks/refund-fingerprint.js';
import { scopeOf } from '../webhooks/to-engine-command.js';
import { IDEMPOTENCY_TTL_MS } from '../webhooks/webhook-pipeline.js';
import type { CheckoutDeps, CheckoutEndpoint } from './checkout-endpoint.js';
import { refundResultJsonSchema } from './checkout-response-schemas.js';
import { refundResult } from './checkout-results.js';
import { readJsonBody } from '../webhooks/read-envelope.js';
import { toMinor } from './to-minor.js';

/** The webhook's cache value (refundFingerprint), so a webhook retry of this refund is answered from the cache too. */
function rememberRefund({ cache, onCacheError }: CheckoutDeps, key: string, fingerprint: string): void {
  // Not awaited: the reversal is committed; a lost cache write only costs a ledger lookup later.
  cache.set(key, fingerprint, IDEMPOTENCY_TTL_MS).catch((error: unknown) => onCacheError(error, 'set'));
}

const reverseCommand = (connection: Connection, body: RefundRequest) => ({
  ...scopeOf(connection),
  transactionId: body.externalTransactionId,
  refundId: body.refundTransactionId,
  amountMinor: toMinor(body.refundAmount),
});

/**
 * POST /v1/refund: the direct equivalent of a `sale.refunded` webhook, in ONE idempotency space
 * with it: the same engine call (reverse, refund id = refundTransactionId), and the same 24-hour
 * cache key (refundKey) written after the engine committed, so the webhook door dedupes it too.
 * This endpoint always asks the ledger instead of answering from the cache: only the ledger holds
 * the original figures a repeat answers with (ALREADY_PROCESSED), and knows whether the id was
 * reused for another sale or amount (400 refund_id_reused). Refunds are rare; the lookup is cheap.
 */
export const refundEndpoint: CheckoutEndpoint = {
  feature: 'refund',
  path: '/v1/refund',
  responseSchema: refundResultJsonSchema,
  handler: (deps) => async (request) => {
    const body = readJsonBody(RefundRequest, request.body);
    const connection = request.connection!;
    request.audit = { eventType: 'refund', transactionId: body.externalTransactionId, refundId: body.refundTransactionId };
    const command = reverseCommand(connection, body);
    const result = await deps.engine.reverse(command);
    rememberRefund(deps, refundKey(connection, body.refundTransactionId), refundFingerprint(command));
    request.audit.outcome = result.status;
    return refundResult(result);
  },
};
