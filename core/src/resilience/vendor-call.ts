import { DelegateBackoff, handleWhen, retry, type IRetryBackoffContext } from 'cockatiel';
import type { VendorCallBudget } from './policies.js';

/** What the policy needs to know of a failed attempt. */
export interface AttemptFailure {
  /** Worth another attempt (429, 5xx, network, a retryable failure inside a 2xx). */
  retryable: boolean;
  /** The wait the vendor asked for (Retry-After, or what its throttle data implies). */
  retryAfterMs?: number | undefined;
}

export interface VendorCallClock {
  /** Epoch milliseconds after which nothing is started or waited for. */
  deadline?: number | undefined;
  now: () => number;
  /**
   * Test seam: how long a wait the policy decided really lasts (default: as decided). The
   * decision (honour, give up, the deadline) is always made on the decided wait; a test records it
   * and answers 0, so a Retry-After of seconds is asserted without being waited for.
   */
  realWaitMs?: ((decidedMs: number) => number) | undefined;
}

export interface VendorCall<T> {
  /** One attempt, given the longest it may take: the budget's timeout, cut to what is left before the deadline. */
  attempt(timeoutMs: number): Promise<T>;
  /** How a failed attempt is judged: null when it is not a failure the policy knows (thrown as is). */
  judge(error: unknown): AttemptFailure | null;
  /** The error thrown when the deadline leaves no time for an attempt. */
  noTimeLeft(): Error;
}

/**
 * The wait before retry `retry` (1 for the first) after `failure`: the vendor's own (Retry-After,
 * or what its throttle data implies), else the budget's exponential step without jitter
 * (baseDelayMs, doubled each retry, at most maxDelayMs).
 */
function retryWait(budget: VendorCallBudget, failure: AttemptFailure, retry: number): number {
  return failure.retryAfterMs ?? Math.min(budget.maxDelayMs, budget.baseDelayMs * 2 ** (retry - 1));
}

/**
 * One vendor call under the vendor-call policy, on cockatiel's retry policy: it makes the
 * attempts, and waits between them by its backoff, a DelegateBackoff answering `retryWait` (the
 * vendor's Retry-After honoured, else the exponential step). A failure is retried when it is
 * retryable, the budget's attempts are not spent, its wait is at most `maxDelayMs` (a longer
 * Retry-After is not shortened: the call gives up at once) and the wait ends before the deadline.
 * Resolves with the value; rejects with the last attempt's error. `onGiveUp` learns how many
 * attempts were made.
 */
export async function runVendorCall<T>(
  budget: VendorCallBudget,
  clock: VendorCallClock,
  call: VendorCall<T>,
  onGiveUp?: (error: unknown, attempts: number) => void,
): Promise<T> {
  const remaining = () => (clock.deadline === undefined ? Infinity : clock.deadline - clock.now());
  let attempts = 0;
  /** Whether the failure of attempt `attempts` earns a retry: retryable, and its wait one the budget and the deadline allow. */
  const worthRetrying = (error: unknown): boolean => {
    const failure = call.judge(error);
    if (!failure?.retryable) return false;
    const wait = retryWait(budget, failure, attempts);
    return wait <= budget.maxDelayMs && wait < remaining();
  };
  const backoff = new DelegateBackoff<IRetryBackoffContext<unknown>>((context) => {
    // Only failures worthRetrying judged come here.
    const failure = 'error' in context.result ? call.judge(context.result.error) : null;
    const wait = failure ? retryWait(budget, failure, context.attempt) : 0;
    return clock.realWaitMs ? clock.realWaitMs(wait) : wait;
  });
  const policy = retry(handleWhen(worthRetrying), { maxAttempts: budget.maxAttempts - 1, backoff });
  try {
    return await policy.execute(async (context) => {
      attempts = context.attempt + 1;
      const timeoutMs = Math.min(budget.timeoutMs, remaining());
      if (timeoutMs <= 0) throw call.noTimeLeft();
      return call.attempt(timeoutMs);
    });
  } catch (error) {
    onGiveUp?.(error, attempts);
    throw error;
  }
}
