import { randomBytes } from 'node:crypto';
import type { IdempotencyCache } from '@loyalty-gateway/core';
import { afterAll, describe, expect, it } from 'vitest';
import { createIdempotencyCache } from '../../src/stores/create-idempotency-cache.js';
import { createRedisClient } from '../../src/stores/create-redis-client.js';
import { scanKeys } from '../../src/testing/redis-keys.js';
import { monitorCommands } from '../../src/testing/redis-monitor.js';
import { createMemoryIdempotencyCache } from '../../src/stores/memory-idempotency-cache.js';
import { createRedisIdempotencyCache, MAX_KEYS_PER_COMMAND } from '../../src/stores/redis-idempotency-cache.js';

/** Each backend: a fresh cache, and a way to let `ms` pass for its TTLs. */
interface Backend {
  name: string;
  open(): { cache: IdempotencyCache; elapse(ms: number): Promise<void> };
}

const runPrefix = `lg:test:${randomBytes(6).toString('hex')}:`;
const redisUrl = process.env.REDIS_URL;
const redis = redisUrl ? createRedisClient(redisUrl) : undefined;

const backends: Backend[] = [
  {
    name: 'memory',
    open() {
      let now = 1_700_000_000_000;
      return {
        cache: createMemoryIdempotencyCache({ now: () => now }),
        elapse: async (ms) => {
          now += ms;
        },
      };
    },
  },
];
if (redis) {
  backends.push({
    name: 'redis',
    open() {
      const keyPrefix = `${runPrefix}${randomBytes(4).toString('hex')}:`;
      return {
        cache: createRedisIdempotencyCache({ redis, keyPrefix }),
        elapse: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
      };
    },
  });
}

afterAll(async () => {
  if (!redis) return;
  const keys = await scanKeys(redis, `${runPrefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
});

describe.each(backends)('IdempotencyCache contract on $name', (backend) => {
  it('misses on an unknown key and returns what was set', async () => {
    const { cache } = backend.open();
    expect(await cache.get('acme-pos|store-1|T-1')).toBeNull();
    await cache.set('acme-pos|store-1|T-1', '{"status":"processed"}', 60_000);
    expect(await cache.get('acme-pos|store-1|T-1')).toBe('{"status":"processed"}');
    expect(await cache.get('acme-pos|store-1|T-2')).toBeNull();
  });

  it('reads several keys at once, each value or null in the order asked, expired ones as misses', async () => {
    const { cache, elapse } = backend.open();
    expect(await cache.getMany([])).toEqual([]);
    await cache.set('v|s|T-1', 'fp1:abc:2026-11-27T06:00:00.000Z', 60_000);
    await cache.set('v|s|E-1', '1', 60_000);
    await cache.set('v|s|T-short', 'x', 50);
    expect(await cache.getMany(['v|s|T-1', 'v|s|E-1'])).toEqual(['fp1:abc:2026-11-27T06:00:00.000Z', '1']);
    expect(await cache.getMany(['v|s|E-2', 'v|s|T-1', 'v|s|E-2'])).toEqual([null, 'fp1:abc:2026-11-27T06:00:00.000Z', null]);
    await elapse(120);
    expect(await cache.getMany(['v|s|T-short', 'v|s|E-1'])).toEqual([null, '1']);
  });

  it('keeps keys that differ only by case, spaces or slashes apart', async () => {
    const { cache } = backend.open();
    await cache.set('v|Store 1|T', 'a', 60_000);
    await cache.set('v|store 1|T', 'b', 60_000);
    await cache.set('v|Store/1|T', 'c', 60_000);
    expect([await cache.get('v|Store 1|T'), await cache.get('v|store 1|T'), await cache.get('v|Store/1|T')]).toEqual(['a', 'b', 'c']);
  });

  it('overwrites a value and restarts its TTL', async () => {
    const { cache, elapse } = backend.open();
    await cache.set('k', 'first', 80);
    await cache.set('k', 'second', 400);
    await elapse(150);
    expect(await cache.get('k')).toBe('second');
  });

  it('forgets an entry once its TTL has passed, each entry on its own TTL', async () => {
    const { cache, elapse } = backend.open();
    await cache.set('short', 'x', 50);
    await cache.set('long', 'y', 5_000);
    expect(await cache.get('short')).toBe('x');
    await elapse(120);
    expect(await cache.get('short')).toBeNull();
    expect(await cache.get('long')).toBe('y');
  });

  it('refuses a TTL that is not positive', async () => {
    const { cache } = backend.open();
    await expect(cache.set('k', 'v', 0)).rejects.toThrow(RangeError);
    expect(await cache.get('k')).toBeNull();
  });
});

describe.runIf(redis)('Redis idempotency cache specifics', () => {
  it('stores under the key prefix with a PX expiry', async () => {
    const keyPrefix = `${runPrefix}px:`;
    const cache = createRedisIdempotencyCache({ redis: redis!, keyPrefix });
    await cache.set('T-9', 'v', 10_000);
    const ttl = await redis!.pttl(`${keyPrefix}T-9`);
    expect(ttl).toBeGreaterThan(9_000);
    expect(ttl).toBeLessThanOrEqual(10_000);
    await cache.close(); // not the owner: the shared client stays usable
    expect(await redis!.get(`${keyPrefix}T-9`)).toBe('v');
  });

  it("one turn's reads are one MGET and its writes one command; each caller gets its own values", async () => {
    const keyPrefix = `${runPrefix}turn:`;
    const cache = createRedisIdempotencyCache({ redis: redis!, keyPrefix });
    const monitor = await monitorCommands(redis!, keyPrefix);
    await Promise.all([cache.set('a', 'A', 10_000), cache.set('b', 'B', 20_000), cache.set('c', 'C', 30_000)]);
    const [a, several, c] = await Promise.all([cache.get('a'), cache.getMany(['b', 'missing', 'c']), cache.get('c')]);
    expect([a, several, c]).toEqual(['A', ['B', null, 'C'], 'C']);
    await cache.set('d', 'D', 10_000);
    const sent = await monitor.stop();
    expect(sent.map(([name]) => name)).toEqual([expect.stringMatching(/^eval(sha)?$/), 'mget', 'set']);
    expect(sent[1]).toEqual(['mget', ...['a', 'b', 'missing', 'c', 'c'].map((key) => keyPrefix + key)]);
    expect(sent[2]).toEqual(['set', `${keyPrefix}d`, 'D', 'PX', '10000']);
    const ttls = await Promise.all(['a', 'b', 'c'].map((key) => redis!.pttl(keyPrefix + key)));
    ttls.forEach((ttl, i) => {
      expect(ttl).toBeGreaterThan((i + 1) * 10_000 - 1_000);
      expect(ttl).toBeLessThanOrEqual((i + 1) * 10_000);
    });
  });

  it('a burst of 1,200 writes and reads in one turn: commands of at most MAX_KEYS_PER_COMMAND keys, every value where it belongs', async () => {
    const keyPrefix = `${runPrefix}burst:`;
    const cache = createRedisIdempotencyCache({ redis: redis!, keyPrefix });
    const keys = Array.from({ length: 1_200 }, (_, i) => `T-${i}`);
    const monitor = await monitorCommands(redis!, keyPrefix);
    await Promise.all(keys.map((key) => cache.set(key, `v-${key}`, 60_000)));
    const values = await Promise.all([...keys.map((key) => cache.get(key)), cache.getMany(['T-0', 'none', 'T-1199'])]);
    expect(values.slice(0, 1_200)).toEqual(keys.map((key) => `v-${key}`));
    expect(values[1_200]).toEqual(['v-T-0', null, 'v-T-1199']);
    const sent = await monitor.stop();
    const keysIn = (command: string[]) => command.filter((arg) => arg.startsWith(keyPrefix)).length;
    expect(sent.map(([name]) => name)).toEqual(
      ['eval', 'eval', 'eval', 'mget', 'mget', 'mget'].map((name) => (name === 'eval' ? expect.stringMatching(/^eval(sha)?$/) : name)),
    );
    expect(sent.map(keysIn)).toEqual([500, 500, 200, 500, 500, 203]);
    expect(Math.max(...sent.map(keysIn))).toBeLessThanOrEqual(MAX_KEYS_PER_COMMAND);
  });

  it('is shared by two clients, as by two gateway processes', async () => {
    const keyPrefix = `${runPrefix}shared:`;
    const a = createIdempotencyCache({ redisUrl: redisUrl!, keyPrefix });
    const b = createIdempotencyCache({ redisUrl: redisUrl!, keyPrefix });
    await a.set('T-1', 'processed', 10_000);
    expect(await b.get('T-1')).toBe('processed');
    await Promise.all([a.close(), b.close()]);
  });
});

describe('Redis outage', () => {
  // A real refused connection (nothing listens on port 1), not a mock.
  it('fails open to a miss when onError is given, and throws otherwise', async () => {
    const errors: string[] = [];
    const failOpen = createIdempotencyCache({ redisUrl: 'redis://127.0.0.1:1', onError: (_e, op) => errors.push(op) });
    const strict = createIdempotencyCache({ redisUrl: 'redis://127.0.0.1:1' });
    const started = Date.now();
    const [got, , gotMany, strictGet, strictGetMany] = await Promise.allSettled([
      failOpen.get('k'),
      failOpen.set('k', 'v', 1_000),
      failOpen.getMany(['k', 'e']),
      strict.get('k'),
      strict.getMany(['k', 'e']),
    ]);
    expect(got).toEqual({ status: 'fulfilled', value: null });
    expect(gotMany).toEqual({ status: 'fulfilled', value: [null, null] });
    expect(errors.sort()).toEqual(['get', 'get', 'set']);
    expect(strictGet.status).toBe('rejected');
    expect(strictGetMany.status).toBe('rejected');
    expect(Date.now() - started).toBeLessThan(3_000); // bounded by commandTimeout, not hanging
    await Promise.all([failOpen.close(), strict.close()]);
  });

  it('the default factory without REDIS_URL is in-process', async () => {
    const cache = createIdempotencyCache({});
    await cache.set('k', 'v', 1_000);
    expect(await cache.get('k')).toBe('v');
    await cache.close();
    expect(await cache.get('k')).toBeNull();
  });
});
