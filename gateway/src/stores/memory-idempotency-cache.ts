import type { IdempotencyCache } from '@loyalty-gateway/core';
import { RotatingTtlMap } from './rotating-ttl-map.js';

export interface MemoryIdempotencyCacheOptions {
  /** Bound on entries held (default 200,000); when full the oldest generation is dropped whole. */
  maxEntries?: number;
  /**
   * The longest TTL callers use (default 24 h). Generations also rotate at this age, so expired
   * entries are reclaimed within two rotations without a timer; a longer TTL may end early.
   */
  maxTtlMs?: number;
  /** Milliseconds since the epoch; injectable for tests. */
  now?: () => number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The in-process IdempotencyCache (single gateway process). O(1) get/set, lazy expiry on read,
 * bounded by two rotating generations: no sweep timer to keep the process alive or to stop.
 * Dropping an entry early is safe: a miss proves nothing and the ledger decides.
 */
export function createMemoryIdempotencyCache(options: MemoryIdempotencyCacheOptions = {}): IdempotencyCache {
  const entries = new RotatingTtlMap<string>({
    maxEntries: options.maxEntries ?? 200_000,
    rotateEveryMs: options.maxTtlMs ?? DAY_MS,
    ...(options.now ? { now: options.now } : {}),
  });
  return {
    async get(key) {
      return entries.get(key) ?? null;
    },
    async set(key, value, ttlMs) {
      if (!(ttlMs > 0)) throw new RangeError(`idempotency TTL must be a positive number of milliseconds, got ${ttlMs}`);
      entries.set(key, value, ttlMs);
    },
    async close() {
      entries.clear();
    },
  };
}
