import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { createRedisClient } from '../stores/create-redis-client.js';
import { monitorCommands } from '../testing/redis-monitor.js';
import { LocalWindowCounter, RedisWindowCounter, type WindowCount, type WindowCounter } from './window-counter.js';

/** A counter and a way to let time pass for it: the injected clock in this process, real time in Redis. */
interface Subject {
  counter: WindowCounter;
  elapse(ms: number): Promise<void>;
}

const redis = process.env.REDIS_URL ? new Redis(process.env.REDIS_URL) : null;
afterAll(async () => {
  await redis?.quit();
});

const subjects: Array<[string, () => Subject]> = [
  [
    'in this process',
    () => {
      let now = 1_000_000;
      return {
        counter: new LocalWindowCounter({ clock: () => now }),
        elapse: async (ms) => {
          now += ms;
        },
      };
    },
  ],
];
if (redis)
  subjects.push([
    'in Redis',
    () => ({
      counter: new RedisWindowCounter(redis, `lg:test:window:${randomBytes(4).toString('hex')}:`),
      elapse: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    }),
  ]);

describe.each(subjects)('the window counter %s', (_name, open) => {
  const WINDOW = 300;

  it('counts per key within a window, with the time left in it, and starts again after it', async () => {
    const { counter, elapse } = open();
    const first = await counter.hit('a', WINDOW);
    expect(first.count).toBe(1);
    expect(first.ttlMs).toBeLessThanOrEqual(WINDOW);
    expect(first.ttlMs).toBeGreaterThan(WINDOW - 50);
    await elapse(100);
    const second = await counter.hit('a', WINDOW);
    expect(second.count).toBe(2);
    expect(second.ttlMs).toBeLessThanOrEqual(WINDOW - 100);
    expect((await counter.hit('b', WINDOW)).count).toBe(1);
    await elapse(WINDOW - 100);
    expect((await counter.hit('a', WINDOW)).count).toBe(1);
  });

  it('reads without counting; a key without a window reads 0 with no time left', async () => {
    const { counter, elapse } = open();
    expect(await counter.read('c', WINDOW)).toEqual<WindowCount>({ count: 0, ttlMs: 0 });
    await counter.hit('c', WINDOW);
    await counter.hit('c', WINDOW);
    const read = await counter.read('c', WINDOW);
    expect(read.count).toBe(2);
    expect(read.ttlMs).toBeGreaterThan(0);
    expect((await counter.read('c', WINDOW)).count).toBe(2);
    await elapse(WINDOW);
    expect(await counter.read('c', WINDOW)).toEqual<WindowCount>({ count: 0, ttlMs: 0 });
  });
});

describe('the window counter in this process', () => {
  it('forgets counters whose window ended (memory follows the keys hit in the last window)', () => {
    let now = 0;
    const counter = new LocalWindowCounter({ clock: () => now });
    for (let i = 0; i < 10_000; i += 1) counter.hit(`k-${i}`, 60_000);
    expect(counter.size).toBe(10_000);
    now += 30_000;
    counter.hit('k-0', 60_000); // still in its window: kept, not restarted
    now += 30_000;
    counter.hit('fresh', 60_000);
    expect(counter.size).toBe(1);
    expect(counter.read('k-0', 60_000)).toEqual({ count: 0, ttlMs: 0 });
  });

  it('a window that starts again is swept by when it began, not by when its key was first seen', () => {
    let now = 0;
    const counter = new LocalWindowCounter({ clock: () => now });
    counter.hit('early', 1_000);
    counter.hit('later', 1_000);
    now = 1_500;
    counter.hit('early', 1_000); // a new window for 'early', beginning after 'later''s
    now = 2_100;
    counter.hit('third', 1_000); // sweeps: 'later' ended at 1,000, 'early''s new window runs to 2,500
    expect(counter.size).toBe(2);
    expect(counter.read('early', 1_000)).toEqual({ count: 1, ttlMs: 400 });
  });

  it('with maxKeys, a new key past the bound drops the key whose window began first; the others keep their counts', () => {
    let now = 0;
    const counter = new LocalWindowCounter({ clock: () => now, maxKeys: 3 });
    for (const key of ['a', 'b', 'c']) {
      counter.hit(key, 60_000);
      now += 1;
    }
    counter.hit('b', 60_000);
    counter.hit('d', 60_000);
    expect(counter.size).toBe(3);
    expect(counter.read('a', 60_000).count).toBe(0);
    expect(counter.read('b', 60_000).count).toBe(2);
    expect(counter.read('d', 60_000).count).toBe(1);
  });
});

describe.runIf(redis)('the window counter in Redis', () => {
  it('counts a key once given its expiry: a key that lost it (no PEXPIRE after its INCR) gets the window again', async () => {
    const prefix = `lg:test:window:${randomBytes(4).toString('hex')}:`;
    const counter = new RedisWindowCounter(redis!, prefix);
    await redis!.set(`${prefix}stuck`, '7');
    const hit = await counter.hit('stuck', 60_000);
    expect(hit.count).toBe(8);
    expect(hit.ttlMs).toBe(60_000);
    const ttl = await redis!.pttl(`${prefix}stuck`);
    expect(ttl).toBeGreaterThan(59_000);
    await redis!.del(`${prefix}stuck`);
  });

  it("a turn's hits are one command per key, each hit gets its own count in the order it came", async () => {
    const prefix = `lg:test:window:${randomBytes(4).toString('hex')}:`;
    const counter = new RedisWindowCounter(redis!, prefix);
    const monitor = await monitorCommands(redis!, prefix);
    const burst = Array.from({ length: 100 }, () => counter.hit('burst', 60_000));
    const other = Array.from({ length: 20 }, () => counter.hit('other', 60_000));
    expect((await Promise.all(burst)).map((hit) => hit.count)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    expect((await Promise.all(other)).map((hit) => hit.count)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect((await counter.hit('burst', 60_000)).count).toBe(101);
    const sent = await monitor.stop();
    // EVAL the first time on a connection, EVALSHA after: three commands for 121 hits.
    expect(sent.map(([name]) => name)).toEqual([expect.stringMatching(/^eval(sha)?$/), expect.stringMatching(/^eval(sha)?$/), 'evalsha']);
    expect(sent.map((command) => command.find((arg) => arg.startsWith(prefix)))).toEqual([
      `${prefix}burst`,
      `${prefix}other`,
      `${prefix}burst`,
    ]);
    await redis!.del(`${prefix}burst`, `${prefix}other`);
  });

  it('a read made in the same turn as hits before it sees them (the refusal limit reads what it has just counted)', async () => {
    const prefix = `lg:test:window:${randomBytes(4).toString('hex')}:`;
    const counter = new RedisWindowCounter(redis!, prefix);
    const [first, second, read] = await Promise.all([counter.hit('seen', 60_000), counter.hit('seen', 60_000), counter.read('seen')]);
    expect([first.count, second.count, read.count]).toEqual([1, 2, 2]);
    expect(read.ttlMs).toBeGreaterThan(59_000);
    expect(await counter.read('never')).toEqual<WindowCount>({ count: 0, ttlMs: 0 });
    await redis!.del(`${prefix}seen`);
  });

  it('two processes hitting one key at once: every count from 1 to the total given exactly once', async () => {
    const prefix = `lg:test:window:${randomBytes(4).toString('hex')}:`;
    const clients = [createRedisClient(process.env.REDIS_URL!), createRedisClient(process.env.REDIS_URL!)];
    try {
      const counters = clients.map((client) => new RedisWindowCounter(client, prefix));
      const counts: number[] = [];
      for (let turn = 0; turn < 5; turn += 1) {
        const hits = counters.flatMap((counter) => Array.from({ length: 200 }, () => counter.hit('shared', 60_000)));
        counts.push(...(await Promise.all(hits)).map((hit) => hit.count));
      }
      expect(counts.sort((a, b) => a - b)).toEqual(Array.from({ length: 2_000 }, (_, i) => i + 1));
    } finally {
      await redis!.del(`${prefix}shared`);
      await Promise.all(clients.map((client) => client.quit()));
    }
  });

  it('two counters on one client (the rate limit and the refusal limit) keep apart by prefix', async () => {
    const tag = randomBytes(4).toString('hex');
    const one = new RedisWindowCounter(redis!, `lg:test:one:${tag}:`);
    const two = new RedisWindowCounter(redis!, `lg:test:two:${tag}:`);
    await one.hit('k', 5_000);
    await one.hit('k', 5_000);
    expect((await two.hit('k', 5_000)).count).toBe(1);
    expect((await one.read('k')).count).toBe(2);
  });
});
