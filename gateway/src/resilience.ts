import { PULL, VENDOR_CALL, WEBHOOK_FETCH_BACK } from '@loyalty-gateway/core';
import { ENGINE_CALL } from './engine-client/engine-call-policy.js';

/**
 * Every named resilience policy of the gateway and its budget, in one place. Each budget is
 * stated once, where its policy lives, and nothing retries on top of another policy:
 *
 * | policy | where it runs | budget |
 * |---|---|---|
 * | `vendorCall` | core's HttpClient (`core/src/resilience/vendor-call.ts`, cockatiel retry) | a timeout per attempt, bounded attempts on 429 / 5xx / network and on a retryable failure inside a 2xx (Shopify's THROTTLED), Retry-After honoured up to `maxDelayMs`, else given up at once |
 * | `webhookFetchBack` | the same policy, with a deadline per unit of a webhook request | `budgetMs` for every call of the unit; nothing started or waited for past it |
 * | `pull` | a catalog or reconciliation run (`gateway/src/scheduler`, `gateway/src/reconcile`) | each page one `vendorCall`, never retried on top; a failed run is pulled again at the next schedule slot |
 * | `engineCall` | the remote engine client (`gateway/src/engine-client/engine-call-policy.ts`, cockatiel breaker and retry) | one deadline per port call, one consecutive-failure breaker, retries of read-only calls only |
 */
export const RESILIENCE_POLICIES = Object.freeze({
  vendorCall: VENDOR_CALL,
  webhookFetchBack: WEBHOOK_FETCH_BACK,
  pull: PULL,
  engineCall: ENGINE_CALL,
});
