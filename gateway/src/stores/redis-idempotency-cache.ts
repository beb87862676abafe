import type { IdempotencyCache } from '@loyalty-gateway/core';
import type { Redis } from 'ioredis';
import { chunkByWeight } from './chunk-by-weight.js';
import { replyAt, turnBatcher } from './redis-turn.js';

export const DEFAULT_IDEMPOTENCY_KEY_PREFIX = 'lg:idem:';

export interface RedisIdempotencyCacheOptions {
  redis: Redis;
  /** Prepended to every key (default `lg:idem:`), so one Redis can serve several uses. */
  keyPrefix?: string;
  /** Quit the client on close() (true when the cache created it). */
  ownsClient?: boolean;
  /**
   * When given, a Redis failure is reported here and treated as a miss (get) or a skipped write
   * (set): the cache only answers "duplicate" early, and the ledger stays correct without it.
   * When absent, failures are thrown.
   */
  onError?: (error: unknown, operation: 'get' | 'set') => void;
}

/** The writes of one turn after the first: `SET key value PX ttl` each, in one script call. */
const SET_MANY = `
for i = 1, #KEYS do
  redis.call('SET', KEYS[i], ARGV[2 * i - 1], 'PX', ARGV[2 * i])
end
return #KEYS
`;

interface SetManyCommand {
  lgIdempotencySetMany(keyCount: number, ...keysThenValues: Array<string | number>): Promise<number>;
}

interface Read {
  keys: readonly string[];
  resolve(values: Array<string | null>): void;
  reject(error: Error): void;
}

interface Write {
  key: string;
  value: string;
  ttlMs: number;
  resolve(): void;
  reject(error: Error): void;
}

/** Keys one command of a turn takes at most (a call's own keys are never split). */
export const MAX_KEYS_PER_COMMAND = 500;

/**
 * The cross-instance IdempotencyCache on Redis. The reads and writes of one turn of the event loop
 * are gathered (stores/redis-turn.ts): the turn's reads are one `MGET`, its writes one
 * `SET key value PX ttl` or, for several, one script that sets them all (per MAX_KEYS_PER_COMMAND
 * keys): a signed sale's read of two keys and its two writes were three commands of their own.
 */
export function createRedisIdempotencyCache(options: RedisIdempotencyCacheOptions): IdempotencyCache {
  const { redis, onError } = options;
  const prefix = options.keyPrefix ?? DEFAULT_IDEMPOTENCY_KEY_PREFIX;
  if (typeof (redis as unknown as Partial<SetManyCommand>).lgIdempotencySetMany !== 'function')
    redis.defineCommand('lgIdempotencySetMany', { lua: SET_MANY });

  // A burst can hold thousands of calls in one turn: each command takes at most MAX_KEYS_PER_COMMAND
  // keys, so none holds Redis (single-threaded) for long or spreads too many arguments.
  const read = turnBatcher<Read, Read[][]>(redis, {
    send: (pipeline, reads) => {
      const chunks = chunkByWeight(reads, (r) => r.keys.length, MAX_KEYS_PER_COMMAND);
      for (const chunk of chunks) pipeline.mget(chunk.flatMap((r) => r.keys.map((key) => prefix + key)));
      return { sent: chunks, commands: chunks.length };
    },
    settle: (chunks, replies) =>
      chunks.forEach((chunk, i) => {
        const [error, values] = replyAt(replies, i);
        let at = 0;
        for (const r of chunk) {
          if (error) r.reject(error);
          else r.resolve((values as Array<string | null>).slice(at, at + r.keys.length));
          at += r.keys.length;
        }
      }),
  });

  const write = turnBatcher<Write, Write[][]>(redis, {
    send: (pipeline, writes) => {
      const chunks = chunkByWeight(writes, () => 1, MAX_KEYS_PER_COMMAND);
      for (const chunk of chunks) {
        if (chunk.length === 1) pipeline.set(prefix + chunk[0]!.key, chunk[0]!.value, 'PX', chunk[0]!.ttlMs);
        else
          void (pipeline as unknown as SetManyCommand).lgIdempotencySetMany(
            chunk.length,
            ...chunk.map((w) => prefix + w.key),
            ...chunk.flatMap((w) => [w.value, w.ttlMs]),
          );
      }
      return { sent: chunks, commands: chunks.length };
    },
    settle: (chunks, replies) =>
      chunks.forEach((chunk, i) => {
        const [error] = replyAt(replies, i);
        for (const w of chunk) {
          if (error) w.reject(error);
          else w.resolve();
        }
      }),
  });

  const getMany = (keys: readonly string[]): Promise<Array<string | null>> =>
    new Promise((resolve, reject) => read({ keys, resolve, reject }));

  return {
    async get(key) {
      try {
        return (await getMany([key]))[0] ?? null;
      } catch (error) {
        if (!onError) throw error;
        onError(error, 'get');
        return null;
      }
    },
    async getMany(keys) {
      if (keys.length === 0) return [];
      try {
        return await getMany(keys);
      } catch (error) {
        if (!onError) throw error;
        onError(error, 'get');
        return keys.map(() => null);
      }
    },
    async set(key, value, ttlMs) {
      if (!(ttlMs > 0)) throw new RangeError(`idempotency TTL must be a positive number of milliseconds, got ${ttlMs}`);
      try {
        await new Promise<void>((resolve, reject) => write({ key, value, ttlMs: Math.ceil(ttlMs), resolve, reject }));
      } catch (error) {
        if (!onError) throw error;
        onError(error, 'set');
      }
    },
    async close() {
      if (options.ownsClient) await redis.quit().catch(() => redis.disconnect());
    },
  };
}
