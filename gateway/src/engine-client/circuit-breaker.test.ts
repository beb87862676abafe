import { EngineError, EngineUnavailableError } from '@loyalty-gateway/core';
import { describe, expect, it } from 'vitest';
import { CircuitBreaker } from './circuit-breaker.js';
import { engineUnavailable, failureKind } from './engine-call-failure.js';

describe('CircuitBreaker', () => {
  let now = 0;
  const breaker = () => new CircuitBreaker({ failureThreshold: 2, coolDownMs: 100, clock: () => now });
  const down = () => Promise.reject(engineUnavailable('connection', 'refused'));
  const up = () => Promise.resolve('ok');

  it('resets the count on any answer: only consecutive unavailability opens it', async () => {
    now = 0;
    const b = breaker();
    await b.run('x', down).catch(() => undefined);
    await b.run('x', () => Promise.reject(new EngineError('not_eligible'))).catch(() => undefined);
    await b.run('x', down).catch(() => undefined);
    expect(b.state).toBe('closed');
    await b.run('x', down).catch(() => undefined);
    expect(b.state).toBe('open');
  });

  it('half-open lets exactly one trial through; the others fail fast until it settles', async () => {
    now = 0;
    const b = breaker();
    for (let i = 0; i < 2; i += 1) await b.run('x', down).catch(() => undefined);
    now = 99;
    expect(failureKind(await b.run('x', up).catch((e: unknown) => e))).toBe('circuit_open');
    now = 100;
    let release!: () => void;
    const trial = b.run('x', () => new Promise<string>((resolve) => { release = () => resolve('trial'); }));
    expect(b.state).toBe('half-open');
    const other = await b.run('x', up).catch((e: unknown) => e);
    expect(other).toBeInstanceOf(EngineUnavailableError);
    release();
    expect(await trial).toBe('trial');
    expect(b.state).toBe('closed');
    expect(await b.run('x', up)).toBe('ok');
  });

  it('a failed trial re-opens for a fresh cool-down', async () => {
    now = 0;
    const b = breaker();
    for (let i = 0; i < 2; i += 1) await b.run('x', down).catch(() => undefined);
    now = 150;
    await b.run('x', down).catch(() => undefined);
    expect(b.state).toBe('open');
    now = 249;
    expect(failureKind(await b.run('x', up).catch((e: unknown) => e))).toBe('circuit_open');
    now = 250;
    expect(await b.run('x', up)).toBe('ok');
  });
});
