import { EngineError, EngineUnavailableError } from '@loyalty-gateway/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { engineUnavailable, failureKind } from './engine-call-failure.js';
import { createEngineCallPolicy, ENGINE_CALL } from './engine-call-policy.js';

describe('the engine-call policy: circuit breaker', () => {
  // Cockatiel times the cool-down on Date.now: the tests move a fake Date (timers stay real).
  beforeEach(() => vi.useFakeTimers({ toFake: ['Date'], now: 0 }));
  afterEach(() => vi.useRealTimers());
  const policy = () => createEngineCallPolicy({ failureThreshold: 2, coolDownMs: 100, retryDelaysMs: [] });
  const down = () => Promise.reject(engineUnavailable('connection', 'refused'));
  const up = () => Promise.resolve('ok');

  it('resets the count on any answer: only consecutive unavailability opens it', async () => {
    vi.setSystemTime(0);
    const b = policy();
    await b.run('x', false, down).catch(() => undefined);
    await b.run('x', false, () => Promise.reject(new EngineError('not_eligible'))).catch(() => undefined);
    await b.run('x', false, down).catch(() => undefined);
    expect(b.state).toBe('closed');
    await b.run('x', false, down).catch(() => undefined);
    expect(b.state).toBe('open');
  });

  it('an EngineError passes through as it was thrown', async () => {
    const answer = new EngineError('not_eligible');
    await expect(policy().run('x', false, () => Promise.reject(answer))).rejects.toBe(answer);
  });

  it('open: fails fast with circuit_open, naming the failures, without calling', async () => {
    vi.setSystemTime(0);
    const b = policy();
    for (let i = 0; i < 2; i += 1) await b.run('x', false, down).catch(() => undefined);
    let called = false;
    const error = await b
      .run('POST /v1/earn', false, async () => {
        called = true;
        return 'ok';
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EngineUnavailableError);
    expect(failureKind(error)).toBe('circuit_open');
    expect((error as Error).cause).toMatchObject({ message: 'POST /v1/earn: circuit open after 2 consecutive failures; failing fast' });
    expect(called).toBe(false);
  });

  it('half-open lets exactly one trial through; the others fail fast until it settles', async () => {
    vi.setSystemTime(0);
    const b = policy();
    for (let i = 0; i < 2; i += 1) await b.run('x', false, down).catch(() => undefined);
    vi.setSystemTime(99);
    expect(failureKind(await b.run('x', false, up).catch((e: unknown) => e))).toBe('circuit_open');
    vi.setSystemTime(100);
    let release!: () => void;
    const trial = b.run(
      'x',
      false,
      () =>
        new Promise<string>((resolve) => {
          release = () => resolve('trial');
        }),
    );
    expect(b.state).toBe('half-open');
    const other = await b.run('x', false, up).catch((e: unknown) => e);
    expect(other).toBeInstanceOf(EngineUnavailableError);
    release();
    expect(await trial).toBe('trial');
    expect(b.state).toBe('closed');
    expect(await b.run('x', false, up)).toBe('ok');
  });

  it('a failed trial re-opens for a fresh cool-down', async () => {
    vi.setSystemTime(0);
    const b = policy();
    for (let i = 0; i < 2; i += 1) await b.run('x', false, down).catch(() => undefined);
    vi.setSystemTime(150);
    await b.run('x', false, down).catch(() => undefined);
    expect(b.state).toBe('open');
    vi.setSystemTime(249);
    expect(failureKind(await b.run('x', false, up).catch((e: unknown) => e))).toBe('circuit_open');
    vi.setSystemTime(250);
    expect(await b.run('x', false, up)).toBe('ok');
  });
});

describe('the engine-call policy: retries', () => {
  const policy = () => createEngineCallPolicy({ failureThreshold: 100, coolDownMs: 100, retryDelaysMs: [1, 1] });
  const counting = (error: () => unknown) => {
    const calls = { count: 0 };
    return {
      calls,
      call: async () => {
        calls.count += 1;
        throw error();
      },
    };
  };

  it('a read-only call is retried while the engine is unreachable: ENGINE_CALL.readOnlyRetryDelaysMs.length extra attempts, then unavailable', async () => {
    for (const kind of ['connection', 'unavailable_status'] as const) {
      const { calls, call } = counting(() => engineUnavailable(kind, 'down'));
      expect(
        failureKind(
          await policy()
            .run('x', true, call)
            .catch((e: unknown) => e),
        ),
      ).toBe(kind);
      expect(calls.count).toBe(1 + ENGINE_CALL.readOnlyRetryDelaysMs.length);
    }
  });

  it('a read-only call succeeds on a retry', async () => {
    let calls = 0;
    const result = await policy().run('x', true, async () => {
      calls += 1;
      if (calls === 1) throw engineUnavailable('unavailable_status', '503');
      return 'ok';
    });
    expect(result).toBe('ok');
    expect(calls).toBe(2);
  });

  it('never retried: a write call, a timeout (its deadline is spent), a bad answer, an EngineError', async () => {
    const cases: Array<[boolean, () => unknown]> = [
      [false, () => engineUnavailable('connection', 'refused')],
      [true, () => engineUnavailable('timeout', 'no answer')],
      [true, () => engineUnavailable('bad_response', 'html')],
      [true, () => new EngineError('member_not_found')],
    ];
    for (const [readOnly, error] of cases) {
      const { calls, call } = counting(error);
      await policy()
        .run('x', readOnly, call)
        .catch(() => undefined);
      expect(calls.count).toBe(1);
    }
  });

  it('the retries of one read-only call count once towards the breaker', async () => {
    const b = createEngineCallPolicy({ failureThreshold: 2, coolDownMs: 100, retryDelaysMs: [1, 1] });
    await b.run('x', true, () => Promise.reject(engineUnavailable('connection', 'refused'))).catch(() => undefined);
    expect(b.state).toBe('closed');
  });
});
