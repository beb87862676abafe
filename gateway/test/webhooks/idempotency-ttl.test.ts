import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { createIdempotencyCache, createMemoryIdempotencyCache, createRedisClient } from '../../src/stores/index.js';
import { monitorCommands } from '../../src/testing/redis-monitor.js';
import { countingEngine, type EngineCallCounts } from '../../src/testing/counting-engine.js';
import { openGateway, type GatewayFixture } from '../../src/testing/gateway-fixture.js';
import { sale } from '../../src/testing/test-seed.js';
import { IDEMPOTENCY_TTL_MS } from '../../src/webhooks/webhook-pipeline.js';

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function countedGateway(options: Parameters<typeof openGateway>[0]): Promise<{ gw: GatewayFixture; calls: EngineCallCounts }> {
  let calls: EngineCallCounts | undefined;
  const gw = await openGateway({
    ...options,
    wrapEngine: (engine) => {
      const counted = countingEngine(engine);
      calls = counted.calls;
      return counted.engine;
    },
  });
  closers.push(() => gw.close());
  return { gw, calls: calls! };
}

describe('the gateway idempotency cache lives 24 hours (spec: Limits)', () => {
  it('is the constant the pipeline writes with', () => {
    expect(IDEMPOTENCY_TTL_MS).toBe(DAY_MS);
  });

  it('a retry 1 s before 24 h is answered from the cache without the engine; past 24 h the ledger answers', async () => {
    let now = Date.UTC(2025, 5, 1, 12);
    const cache = createMemoryIdempotencyCache({ now: () => now });
    closers.push(() => cache.close());
    const { gw, calls } = await countedGateway({ idempotency: cache });
    const s = sale({ total: 9 });
    expect((await gw.send(s)).json()).toMatchObject({ status: 'processed', pointsEarned: 9 });
    expect(calls.earn).toBe(1);

    now += DAY_MS - 1_000;
    expect((await gw.send(s)).json()).toMatchObject({ status: 'duplicate' });
    expect(calls.earn).toBe(1); // from the cache

    now += 2_000; // 24 h + 1 s after the sale: the cache has forgotten it, the ledger has not
    expect((await gw.send(s)).json()).toMatchObject({ status: 'duplicate', pointsEarned: 0 });
    expect(calls.earn).toBe(2);
  });

  it.runIf(process.env.REDIS_URL)('on Redis: the keys a sale writes (transaction and eventId) expire in 24 h (PTTL)', async () => {
    const keyPrefix = `lg-test:${randomUUID()}:`;
    const cache = createIdempotencyCache({ redisUrl: process.env.REDIS_URL!, keyPrefix });
    const redis = createRedisClient(process.env.REDIS_URL!);
    closers.push(
      () => cache.close(),
      () => redis.quit(),
    );
    closers.push(async () => {
      const keys = await redis.keys(`${keyPrefix}*`);
      if (keys.length > 0) await redis.del(...keys);
    });
    const { gw } = await countedGateway({ idempotency: cache });
    const s = sale();
    expect((await gw.send(s)).json()).toMatchObject({ status: 'processed' });

    // The write follows the answer (not awaited): wait for both keys.
    let keys: string[] = [];
    for (let i = 0; i < 50 && keys.length < 2; i += 1) {
      keys = await redis.keys(`${keyPrefix}*`);
      if (keys.length < 2) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(keys.map((k) => k.slice(keyPrefix.length).split(':')[0]).sort()).toEqual(['e', 't']);
    for (const key of keys) {
      const pttl = await redis.pttl(key);
      expect(pttl).toBeGreaterThan(DAY_MS - 60_000);
      expect(pttl).toBeLessThanOrEqual(DAY_MS);
    }
  });
});

describe.runIf(process.env.REDIS_URL)('what a sale costs Redis', () => {
  it('a new sale reads its transaction and event keys with one MGET and writes both with one command; its retry is one MGET', async () => {
    const keyPrefix = `lg-test:${randomUUID()}:`;
    const cache = createIdempotencyCache({ redisUrl: process.env.REDIS_URL!, keyPrefix });
    const redis = createRedisClient(process.env.REDIS_URL!);
    closers.push(
      () => cache.close(),
      () => redis.quit(),
    );
    const { gw } = await countedGateway({ idempotency: cache });
    const s = sale();
    let monitor = await monitorCommands(redis, keyPrefix);
    expect((await gw.send(s)).json()).toMatchObject({ status: 'processed' });
    // The writes follow the answer (not awaited): wait for both keys.
    for (let i = 0; i < 50 && (await redis.keys(`${keyPrefix}*`)).length < 2; i += 1)
      await new Promise((resolve) => setTimeout(resolve, 20));
    // The two writes of one turn are one script (two SETs with their PX inside it, not counted as the client's).
    const sent = (await monitor.stop()).map(([name]) => name).filter((name) => name !== 'keys'); // the test's own polling
    expect(sent).toEqual(['mget', expect.stringMatching(/^eval(sha)?$/)]);
    monitor = await monitorCommands(redis, keyPrefix);
    expect((await gw.send(s)).json()).toMatchObject({ status: 'duplicate' });
    await new Promise((resolve) => setTimeout(resolve, 100)); // nothing else follows
    expect((await monitor.stop()).map(([name]) => name)).toEqual(['mget']);
  });
});
