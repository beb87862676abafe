import { createHttpClient, WEBHOOK_FETCH_BACK, type FetchBackBudget, type HttpClient, type OutboundPolicy } from '@loyalty-gateway/core';

/**
 * How a webhook's fetch-back talks to the vendor's API: the vendor-call policy with the
 * WEBHOOK_FETCH_BACK budget (core/src/resilience/policies.ts). The vendor is waiting for our
 * answer, so each unit of a request gets one budget: attempts are cut to it, and a Retry-After
 * that ends past it is not waited for: the door answers 503 vendor_api_unavailable and the
 * vendor's own redelivery is the retry. Per unit, not per request: a shared budget made a large
 * batch fail at the same unit on every redelivery. Once one unit's fetch-back failed, the request's
 * later units fail at once (process-unit.ts), so a down API still costs one budget. Catalog and
 * reconciliation pulls use the VENDOR_CALL budget (the operator side's client).
 */
export type WebhookFetchPolicy = FetchBackBudget;

export const WEBHOOK_FETCH_POLICY: Readonly<WebhookFetchPolicy> = WEBHOOK_FETCH_BACK;

/** A client for one unit of a webhook request: its deadline starts now (real time, whatever the door's clock says). */
export function webhookFetchClient(policy: WebhookFetchPolicy, outbound?: OutboundPolicy): HttpClient {
  return createHttpClient({ ...policy, deadline: Date.now() + policy.budgetMs, ...(outbound ? { outbound } : {}) });
}
