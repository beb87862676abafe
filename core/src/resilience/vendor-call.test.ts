import { describe, expect, it } from 'vitest';
import { VENDOR_CALL, WEBHOOK_FETCH_BACK, type VendorCallBudget } from './policies.js';
import { runVendorCall, type AttemptFailure } from './vendor-call.js';

class Failure extends Error implements AttemptFailure {
  constructor(
    readonly retryable: boolean,
    readonly retryAfterMs?: number,
  ) {
    super(retryable ? 'retryable' : 'final');
  }
}

/** A scripted vendor on a fake clock: each attempt takes the next answer; the waits cockatiel is asked to make advance the clock (and take no real time). */
function vendor(answers: Array<Failure | 'ok'>, deadline?: number, hangs = false) {
  let now = 0;
  const waits: number[] = [];
  const timeouts: number[] = [];
  let attempts: number | undefined;
  const run = (budget: VendorCallBudget) =>
    runVendorCall(
      budget,
      {
        deadline,
        now: () => now,
        realWaitMs: (ms) => {
          waits.push(ms);
          now += ms;
          return 0;
        },
      },
      {
        attempt: async (timeoutMs) => {
          timeouts.push(timeoutMs);
          const next = answers.shift() ?? new Failure(true);
          if (next === 'ok') return 'ok';
          now += hangs ? timeoutMs : 10; // a hanging API takes the whole attempt
          throw next;
        },
        judge: (error) => (error instanceof Failure ? error : null),
        noTimeLeft: () => new Failure(true),
      },
      (_error, made) => {
        attempts = made;
      },
    );
  return {
    run,
    waits,
    timeouts,
    get attempts() {
      return attempts;
    },
    get calls() {
      return timeouts.length;
    },
  };
}

describe('the vendor-call policy', () => {
  it('VENDOR_CALL: a vendor that keeps failing is asked exactly maxAttempts times, with doubling backoff between', async () => {
    const v = vendor([]);
    await expect(v.run(VENDOR_CALL)).rejects.toBeInstanceOf(Failure);
    expect(v.calls).toBe(VENDOR_CALL.maxAttempts);
    expect(v.attempts).toBe(VENDOR_CALL.maxAttempts);
    expect(v.waits).toEqual([VENDOR_CALL.baseDelayMs, VENDOR_CALL.baseDelayMs * 2]);
    expect(v.timeouts).toEqual(Array(VENDOR_CALL.maxAttempts).fill(VENDOR_CALL.timeoutMs));
  });

  it('succeeds as soon as an attempt does', async () => {
    const v = vendor([new Failure(true), 'ok']);
    await expect(v.run(VENDOR_CALL)).resolves.toBe('ok');
    expect(v.calls).toBe(2);
  });

  it('a failure that is not retryable (or not one it knows) is thrown after one attempt', async () => {
    const v = vendor([new Failure(false)]);
    await expect(v.run(VENDOR_CALL)).rejects.toMatchObject({ retryable: false });
    expect(v.calls).toBe(1);
    expect(v.attempts).toBe(1);
  });

  it('honours Retry-After, longer or shorter than the backoff step', async () => {
    const v = vendor([new Failure(true, 2_000), new Failure(true, 0), 'ok']);
    await expect(v.run(VENDOR_CALL)).resolves.toBe('ok');
    expect(v.waits).toEqual([2_000, 0]);
  });

  it('a Retry-After longer than maxDelayMs is not shortened: thrown at once, carrying the wait', async () => {
    const v = vendor([new Failure(true, VENDOR_CALL.maxDelayMs + 1)]);
    await expect(v.run(VENDOR_CALL)).rejects.toMatchObject({ retryAfterMs: VENDOR_CALL.maxDelayMs + 1 });
    expect(v.calls).toBe(1);
    expect(v.waits).toEqual([]);
  });

  it('WEBHOOK_FETCH_BACK: at most maxAttempts, each attempt cut to what is left of the budget', async () => {
    const v = vendor([], WEBHOOK_FETCH_BACK.budgetMs, true);
    await expect(v.run(WEBHOOK_FETCH_BACK)).rejects.toBeInstanceOf(Failure);
    expect(v.calls).toBe(WEBHOOK_FETCH_BACK.maxAttempts);
    expect(v.waits).toEqual([WEBHOOK_FETCH_BACK.baseDelayMs]);
    expect(v.timeouts).toEqual([
      WEBHOOK_FETCH_BACK.timeoutMs,
      WEBHOOK_FETCH_BACK.budgetMs - WEBHOOK_FETCH_BACK.timeoutMs - WEBHOOK_FETCH_BACK.baseDelayMs,
    ]);
  });

  it('the deadline cuts retries: a wait that would end past it is not made', async () => {
    const v = vendor([new Failure(true, 500), 'ok'], 400);
    await expect(v.run({ ...VENDOR_CALL, maxAttempts: 5 })).rejects.toMatchObject({ retryAfterMs: 500 });
    expect(v.calls).toBe(1);
    expect(v.waits).toEqual([]);
  });

  it('nothing is started once the deadline has passed', async () => {
    const v = vendor(['ok'], 0);
    await expect(v.run(VENDOR_CALL)).rejects.toBeInstanceOf(Failure);
    expect(v.calls).toBe(0);
    expect(v.attempts).toBe(1);
  });

  it("without the seam the waits are cockatiel's own timers: the backoff steps really pass", async () => {
    const failures = [new Failure(true), new Failure(true)];
    const started = performance.now();
    const value = await runVendorCall(
      { ...VENDOR_CALL, baseDelayMs: 40 },
      { now: Date.now },
      {
        attempt: async () => {
          const failure = failures.shift();
          if (failure) throw failure;
          return 'ok';
        },
        judge: (error) => (error instanceof Failure ? error : null),
        noTimeLeft: () => new Failure(true),
      },
    );
    expect(value).toBe('ok');
    expect(performance.now() - started).toBeGreaterThanOrEqual(40 + 80 - 2); // 40 ms, then 80 ms (timers may fire a hair early)
  });
});
