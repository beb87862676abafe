import { EngineUnavailableError, type LoyaltyEngine } from '@loyalty-gateway/core';
import { describe, expect, it } from 'vitest';
import { ENGINE_OPERATIONS, GatewayMetrics } from './gateway-metrics.js';

/** gateway_engine_call_duration_seconds's count for `operation`, read from the exposition. */
async function callsTimed(metrics: GatewayMetrics, operation: string): Promise<number> {
  const { body } = await metrics.render();
  const line = body.split('\n').find((l) => l.startsWith(`gateway_engine_call_duration_seconds_count{operation="${operation}"}`));
  return line ? Number(line.split(' ').pop()) : 0;
}

describe('the engine port, timed', () => {
  it("answers with the engine's own promise and times every call, answered, failed or thrown", async () => {
    const metrics = new GatewayMetrics({ defaultMetrics: false });
    const answer = Promise.resolve({ status: 'PROCESSED' });
    const unavailable = new EngineUnavailableError();
    let next: () => Promise<unknown> = () => answer;
    const unused = () => Promise.reject(new Error('not called here'));
    const engine = {
      ...Object.fromEntries(ENGINE_OPERATIONS.map((name) => [name, unused])),
      earn: () => next(),
      eligibility: () => {
        throw new TypeError('thrown before any promise');
      },
    } as unknown as LoyaltyEngine;
    const timed = metrics.timeEngine(engine);

    expect(timed.earn({} as never)).toBe(answer);
    await answer;
    next = () => Promise.reject(unavailable);
    await expect(timed.earn({} as never)).rejects.toBe(unavailable);
    // A synchronous throw reaches the caller as a rejection, as from an async function, and is timed too.
    const thrown = timed.eligibility({} as never);
    expect(thrown).toBeInstanceOf(Promise);
    await expect(thrown).rejects.toThrow('thrown before any promise');
    await new Promise((resolve) => setImmediate(resolve));

    expect(await callsTimed(metrics, 'earn')).toBe(2);
    expect(await callsTimed(metrics, 'eligibility')).toBe(1);
    expect(await callsTimed(metrics, 'redeem')).toBe(0);
  });
});
