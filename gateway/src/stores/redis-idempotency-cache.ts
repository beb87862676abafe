import type { IdempotencyCache } from '@loyalty-gateway/core';
import type { Redis } from 'ioredis';

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

/** The cross-instance IdempotencyCache: `SET key value PX ttl`, `GET key` and `MGET keys…` on Redis. */
export function createRedisIdempotencyCache(options: RedisIdempotencyCacheOptions): IdempotencyCache {
  const { redis, onError } = options;
  const prefix = options.keyPrefix ?? DEFAULT_IDEMPOTENCY_KEY_PREFIX;
  return {
    async get(key) {
      try {
        return await redis.get(prefix + key);
      } catch (error) {
        if (!onError) throw error;
        onError(error, 'get');
        return null;
      }
    },
    async getMany(keys) {
      if (keys.length === 0) return [];
      try {
        // One MGET, not a GET per key: each command costs the gateway's event loop and Redis
        // ~10 µs apiece, and a signed sale reads two keys (its transaction and its event).
        return await redis.mget(keys.map((key) => prefix + key));
      } catch (error) {
        if (!onError) throw error;
        onError(error, 'get');
        return keys.map(() => null);
      }
    },
    async set(key, value, ttlMs) {
      if (!(ttlMs > 0)) throw new RangeError(`idempotency TTL must be a positive number of milliseconds, got ${ttlMs}`);
      try {
        await redis.set(prefix + key, value, 'PX', Math.ceil(ttlMs));
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
