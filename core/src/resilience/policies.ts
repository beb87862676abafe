/**
 * The budgets of the vendor-side resilience policies, each stated once. Every retry, timeout and
 * deadline towards a vendor's API is one of these; nothing retries on top of another.
 *
 * - **vendor call** (`VENDOR_CALL`): one request to a vendor's API through core's HttpClient: a
 *   timeout per attempt, bounded attempts on 429 / 5xx / network failures (and on a 2xx that the
 *   adapter reads as a retryable failure, e.g. Shopify's THROTTLED), honouring Retry-After, and
 *   an optional overall deadline. `vendor-call.ts` carries it out with cockatiel's retry policy.
 * - **webhook fetch-back** (`WEBHOOK_FETCH_BACK`): the vendor-call policy with a deadline, for the
 *   calls an adapter makes while the vendor waits for the door's answer.
 * - **pull** (`PULL`): a catalog or reconciliation run. Each page is one vendor call, with exactly
 *   the vendor-call budget: pages are not retried on top of it. A run that fails is recorded failed
 *   and the next schedule slot (or a manual run) pulls again.
 *
 * The engine-call policy (deadline, circuit breaker, retries of read-only calls) belongs to the
 * gateway's engine client (`ENGINE_CALL`); docs/architecture.md lists the four together.
 */

/** How one vendor call may spend time and attempts. */
export interface VendorCallBudget {
  /** Longest one attempt may take (connect to last byte). */
  readonly timeoutMs: number;
  /** Attempts in all, the first included. */
  readonly maxAttempts: number;
  /** First backoff step when the vendor sends no Retry-After, doubled each attempt (capped at maxDelayMs). */
  readonly baseDelayMs: number;
  /**
   * Longest wait between attempts. A Retry-After longer than this is not shortened: the call gives
   * up at once and its error carries `retryAfterMs` (retrying early only earns another 429).
   */
  readonly maxDelayMs: number;
}

/** A vendor call with no one waiting on the other end: catalog and reconciliation pages, subscription registration. */
export const VENDOR_CALL: VendorCallBudget = Object.freeze({
  timeoutMs: 10_000,
  maxAttempts: 3,
  baseDelayMs: 250,
  maxDelayMs: 30_000,
});

/** The vendor-call policy with a deadline: `budgetMs` for every call of one unit of a webhook request. */
export interface FetchBackBudget extends VendorCallBudget {
  /** Total time for the vendor API calls of one unit of a webhook request; nothing is started or waited for past it. */
  readonly budgetMs: number;
}

/**
 * A webhook's fetch-back: the vendor is waiting for our answer (Shopify gives 5 s, Square 10 s,
 * then both redeliver), so each unit gets 4 s, at most 2 attempts of at most 2.5 s, and a wait
 * that would end past the budget is not made: the door answers 503 and the vendor's redelivery is
 * the retry.
 */
export const WEBHOOK_FETCH_BACK: FetchBackBudget = Object.freeze({
  budgetMs: 4_000,
  timeoutMs: 2_500,
  maxAttempts: 2,
  baseDelayMs: 100,
  maxDelayMs: 1_000,
});

export interface PullBudget {
  /** The budget of one page: one vendor call. Pages are never retried on top of it. */
  readonly page: VendorCallBudget;
  /** A catalog pull that has not ended after this many pages is broken. */
  readonly catalogMaxPages: number;
  /** Pages one reconciliation run reads at most (a runaway cursor ends the run failed; the checkpoint stays). */
  readonly reconcileMaxPages: number;
}

/** A catalog or reconciliation run. A failed run is not retried by itself: the next schedule slot pulls again. */
export const PULL: PullBudget = Object.freeze({
  page: VENDOR_CALL,
  catalogMaxPages: 10_000,
  reconcileMaxPages: 1_000,
});
