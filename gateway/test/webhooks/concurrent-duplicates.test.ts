import { randomUUID } from 'node:crypto';
import { testDialects } from '@loyalty-gateway/storage/testing';
import { describe, expect, it } from 'vitest';
import { createIdempotencyCache } from '../../src/stores/index.js';
import { countingEngine, type EngineCallCounts } from '../../src/testing/counting-engine.js';
import { headersFor, openGateway } from '../../src/testing/gateway-fixture.js';
import { sale } from '../../src/testing/test-seed.js';

describe.each(testDialects())('20 concurrent copies of one sale over real HTTP ($name)', ({ name }) => {
  it('exactly one processed, 19 duplicate, points once', async () => {
    // PostgreSQL runs with the Redis cache when REDIS_URL is set: the multi-process configuration.
    const redisCache =
      name === 'postgres' && process.env.REDIS_URL
        ? createIdempotencyCache({ redisUrl: process.env.REDIS_URL, keyPrefix: `lg-test:${randomUUID()}:` })
        : undefined;
    let calls: EngineCallCounts | undefined;
    const gw = await openGateway({
      dialect: name,
      ...(redisCache ? { idempotency: redisCache } : {}),
      wrapEngine: (engine) => {
        const counted = countingEngine(engine);
        calls = counted.calls;
        return counted.engine;
      },
    });
    try {
      const address = await gw.app.listen({ host: '127.0.0.1', port: 0 });
      const before = await gw.balance('MBR-0001');
      const body = JSON.stringify(sale({ total: 25 }));
      const responses = await Promise.all(
        Array.from({ length: 20 }, () =>
          fetch(`${address}/webhooks/generic`, { method: 'POST', headers: headersFor(body), body }).then(async (r) => ({
            status: r.status,
            body: (await r.json()) as { status: string; pointsEarned: number },
          })),
        ),
      );
      expect(responses.map((r) => r.status)).toEqual(Array(20).fill(200));
      const statuses = responses.map((r) => r.body.status).sort();
      expect(statuses.filter((s) => s === 'processed')).toHaveLength(1);
      expect(statuses.filter((s) => s === 'duplicate')).toHaveLength(19);
      expect(responses.reduce((sum, r) => sum + r.body.pointsEarned, 0)).toBe(25);
      expect(await gw.balance('MBR-0001')).toBe(before + 25);
      // the cache now answers the retry without the engine
      const earnCalls = calls!.earn;
      expect(earnCalls).toBeGreaterThanOrEqual(1);
      expect(earnCalls).toBeLessThanOrEqual(20);
      const retry = await fetch(`${address}/webhooks/generic`, { method: 'POST', headers: headersFor(body), body });
      expect(((await retry.json()) as { status: string }).status).toBe('duplicate');
      expect(calls!.earn).toBe(earnCalls);
    } finally {
      await gw.close();
      await redisCache?.close();
    }
  });
});
