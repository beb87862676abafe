import type { IdempotencyCache } from '@loyalty-gateway/core';
import { OffHeapTtlMap } from './off-heap-ttl-map.js';

export interface MemoryIdempotencyCacheOptions {
  /**
   * Bound on the memory the entries take, outside V8's heap (default 32 MiB; the gateway passes
   * GATEWAY_IDEMPOTENCY_CACHE_MB); when a generation holds half of it, the older one is dropped whole.
   */
  maxBytes?: number;
  /**
   * The longest TTL callers use (default 24 h). Generations also rotate at this age, so expired
   * entries are reclaimed within two rotations without a timer; a longer TTL may end early.
   */
  maxTtlMs?: number;
  /** Milliseconds since the epoch; injectable for tests. */
  now?: () => number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

export const DEFAULT_IDEMPOTENCY_CACHE_BYTES = 32 * 1024 * 1024;

/**
 * The in-process IdempotencyCache (single gateway process). O(1) get/set, lazy expiry on read,
 * bounded in bytes by two rotating generations held outside V8's heap (OffHeapTtlMap): a day of
 * sales never reaches the garbage collector, and there is no sweep timer to keep the process alive
 * or to stop. Dropping an entry early is safe: a miss proves nothing and the ledger decides.
 */
export function createMemoryIdempotencyCache(options: MemoryIdempotencyCacheOptions = {}): IdempotencyCache {
  const entries = new OffHeapTtlMap({
    maxBytes: options.maxBytes ?? DEFAULT_IDEMPOTENCY_CACHE_BYTES,
    rotateEveryMs: options.maxTtlMs ?? DAY_MS,
    ...(options.now ? { now: options.now } : {}),
  });
  return {
    async get(key) {
      return entries.get(key) ?? null;
    },
    async getMany(keys) {
      return keys.map((key) => entries.get(key) ?? null);
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
