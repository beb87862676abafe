import { afterAll, describe, expect, it } from 'vitest';
import { createRedisClient } from './create-redis-client.js';
import { replyAt, turnBatcher } from './redis-turn.js';

interface Call {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

const call = (queue: (call: Call) => void): Promise<unknown> => new Promise((resolve, reject) => queue({ resolve, reject }));

/** A part of the turn that sends one PING for all its calls and answers each with the reply. */
const pinging = (redis: ReturnType<typeof createRedisClient>) =>
  turnBatcher<Call, Call[]>(redis, {
    send: (pipeline, calls) => {
      pipeline.ping();
      return { sent: calls, commands: 1 };
    },
    settle: (calls, replies) => {
      const [error, value] = replyAt(replies, 0);
      for (const one of calls) {
        if (error) one.reject(error);
        else one.resolve(value);
      }
    },
  });

const redis = process.env.REDIS_URL ? createRedisClient(process.env.REDIS_URL) : null;
afterAll(async () => {
  await redis?.quit();
});

describe.runIf(redis)('the Redis calls of one turn', () => {
  it("a part that cannot build its commands fails its own calls; the turn's other parts are sent and answered", async () => {
    const broken = turnBatcher<Call, never>(redis!, {
      send: () => {
        throw new Error('cannot build the command');
      },
      settle: () => {},
    });
    const ping = pinging(redis!);
    const [a, b, c] = await Promise.allSettled([call(ping), call(broken), call(ping)]);
    expect(a).toEqual({ status: 'fulfilled', value: 'PONG' });
    expect(b).toMatchObject({ status: 'rejected', reason: { message: 'cannot build the command' } });
    expect(c).toEqual({ status: 'fulfilled', value: 'PONG' });
    // The next turn starts afresh.
    expect(await call(ping)).toBe('PONG');
  });
});

describe('the Redis calls of one turn, Redis unreachable', () => {
  // A real refused connection (nothing listens on port 1), not a mock.
  it('every call of every part fails, promptly', async () => {
    const down = createRedisClient('redis://127.0.0.1:1');
    try {
      const one = pinging(down);
      const two = pinging(down);
      const started = Date.now();
      const settled = await Promise.allSettled([call(one), call(two), call(one)]);
      expect(settled.map((s) => s.status)).toEqual(['rejected', 'rejected', 'rejected']);
      expect(Date.now() - started).toBeLessThan(3_000);
    } finally {
      down.disconnect();
    }
  });
});
