import { createHttpClient, type FetchBackBudget, type HttpClient, type OutboundPolicy } from '@loyalty-gateway/core';

/**
 * A client for one unit of a webhook request: the vendor-call policy with the fetch-back budget
 * (WEBHOOK_FETCH_BACK in core/src/resilience/policies.ts, unless a test shortens it), its deadline
 * starting now (real time, whatever the door's clock says). The vendor is waiting for our answer,
 * so each unit of a request gets one budget: attempts are cut to it, and a Retry-After that ends
 * past it is not waited for: the door answers 503 vendor_api_unavailable and the vendor's own
 * redelivery is the retry. Per unit, not per request: a shared budget made a large batch fail at
 * the same unit on every redelivery. Once one unit's fetch-back failed, the request's later units
 * fail at once (process-unit.ts), so a down API still costs one budget. Catalog and
 * reconciliation pulls use the VENDOR_CALL budget (the operator side's client).
 */
export function webhookFetchClient(budget: FetchBackBudget, outbound?: OutboundPolicy): HttpClient {
  return createHttpClient({ ...budget, deadline: Date.now() + budget.budgetMs, ...(outbound ? { outbound } : {}) });
}
