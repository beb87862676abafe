/**
 * Why a request failed on our side (a 5xx), as the journal keeps it: which call failed (a vendor
 * API's host and path template, an engine operation, the gateway's own database), what happened
 * (an HTTP status, no answer, a timeout, an unreadable answer, the breaker open) and how long the
 * call took. Never a full URL (ids, query strings with keys), never a body, never a credential:
 * support reads it through the admin API and the console.
 */
export interface FailureCause {
  /** `vendor API api.clover.com/v3/merchants/{id}/orders/{id}`, `engine earn`, `gateway database`. */
  call: string;
  /** `HTTP 503 after 2 attempts`, `timed out: no answer within 2000 ms`, `circuit breaker open: failing fast`. */
  what: string;
  /** How long the failing call took, in ms; null when it was not timed (the gateway's own faults). */
  ms: number | null;
}

/** Causes noted where a failure was raised, by the error raised (found again through `cause` chains). */
const NOTED = new WeakMap<object, FailureCause>();

/**
 * Notes the cause of `error` where it is raised, where the call and its duration are known; the
 * error handler finds it again on the error or on any error that wraps it (`cause`). The first
 * note of an error stands: an error thrown on by several units keeps the call that raised it.
 */
export function noteFailure<E>(error: E, cause: FailureCause): E {
  if (typeof error === 'object' && error !== null && !NOTED.has(error)) NOTED.set(error, cause);
  return error;
}

/** `error` and the errors it wraps (its `cause` chain), nearest first: at most eight, objects only. */
export function* causeChain(error: unknown): Generator<object> {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && typeof current === 'object' && current !== null; depth += 1) {
    yield current;
    current = (current as { cause?: unknown }).cause;
  }
}

/** The cause noted on `error` or on one of the errors it wraps (its `cause` chain), nearest first. */
export function notedFailure(error: unknown): FailureCause | null {
  for (const current of causeChain(error)) {
    const noted = NOTED.get(current);
    if (noted) return noted;
  }
  return null;
}
