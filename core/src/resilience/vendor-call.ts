import { ConstantBackoff, handleWhen, retry } from 'cockatiel';
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
  /** How a wait between attempts is made (tests record it instead). */
  sleep: (ms: number) => Promise<void>;
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
 * One vendor call under the vendor-call policy: cockatiel's retry policy makes the attempts and
 * decides whether another one is made; the wait before it is max(backoff) or the vendor's
 * Retry-After, made with the injectable `sleep`. A failure is retried when it is retryable, the
 * budget's attempts are not spent, the wait is at most `maxDelayMs` (a longer Retry-After is
 * not shortened: the call gives up at once) and the wait ends before the deadline. Resolves with the
 * value; rejects with the last attempt's error. `onGiveUp` learns how many attempts were made.
 */
export async function runVendorCall<T>(
  budget: VendorCallBudget,
  clock: VendorCallClock,
  call: VendorCall<T>,
  onGiveUp?: (error: unknown, attempts: number) => void,
): Promise<T> {
  const remaining = () => (clock.deadline === undefined ? Infinity : clock.deadline - clock.now());
  let attempts = 0;
  let wait = 0;
  /** Whether the failure of attempt `attempts` earns another one; sets the wait before it. */
  const retryWorthy = (error: unknown): boolean => {
    const failure = call.judge(error);
    if (!failure?.retryable || attempts >= budget.maxAttempts) return false;
    const next = failure.retryAfterMs ?? Math.min(budget.maxDelayMs, budget.baseDelayMs * 2 ** (attempts - 1));
    if (next > budget.maxDelayMs || next >= remaining()) return false;
    wait = next;
    return true;
  };
  const policy = retry(handleWhen(retryWorthy), { maxAttempts: budget.maxAttempts - 1, backoff: new ConstantBackoff(0) });
  try {
    return await policy.execute(async () => {
      if (attempts > 0) await clock.sleep(wait);
      attempts += 1;
      const timeoutMs = Math.min(budget.timeoutMs, remaining());
      if (timeoutMs <= 0) throw call.noTimeLeft();
      return call.attempt(timeoutMs);
    });
  } catch (error) {
    onGiveUp?.(error, attempts);
    throw error;
  }
}
