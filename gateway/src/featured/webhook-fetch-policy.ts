import { createHttpClient, type HttpClient, type OutboundPolicy } from '@loyalty-gateway/core';

/**
 * How a webhook's fetch-back talks to the vendor's API. The vendor is waiting for our answer
 * (Shopify gives 5 s, Square 10 s, then both redeliver), so each unit of a request gets one budget:
 * attempts are cut to it, at most two of them, and a Retry-After that ends past it is not waited
 * for: the door answers 503 vendor_api_unavailable and the vendor's own redelivery is the retry.
 * Per unit, not per request: a shared budget made a large batch fail at the same unit on every
 * redelivery. Once one unit's fetch-back failed, the request's later units fail at once
 * (process-unit.ts), so a down API still costs one budget. Catalog pulls keep core's patient
 * defaults (the scheduler's client).
 */
export interface WebhookFetchPolicy {
  /** Total time for the vendor API calls of one unit of a webhook request. */
  budgetMs: number;
  /** Longest single attempt. */
  timeoutMs: number;
  maxAttempts: number;
  /** Backoff before the second attempt when the vendor sends no Retry-After. */
  baseDelayMs: number;
  /** Longest wait between attempts (a Retry-After beyond it fails at once). */
  maxDelayMs: number;
}

export const WEBHOOK_FETCH_POLICY: Readonly<WebhookFetchPolicy> = Object.freeze({
  budgetMs: 4_000,
  timeoutMs: 2_500,
  maxAttempts: 2,
  baseDelayMs: 100,
  maxDelayMs: 1_000,
});

/** A client for one unit of a webhook request: its deadline starts now (real time, whatever the door's clock says). */
export function webhookFetchClient(policy: WebhookFetchPolicy, outbound?: OutboundPolicy): HttpClient {
  return createHttpClient({ ...policy, deadline: Date.now() + policy.budgetMs, ...(outbound ? { outbound } : {}) });
}
