import type { IdempotencyCache } from '@loyalty-gateway/core';
import { RotatingTtlMap } from './rotating-ttl-map.js';

export interface MemoryIdempotencyCacheOptions {
  /**
   * Bound on the memory the entries take, estimated per entry (default 32 MiB:
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

/**
 * A string stored for a day as one flat string. The keys and values callers build with template
 * literals are trees of V8 cons strings (a 32-byte node per concatenation, kept with its parts),
 * which held ~1.2–1.7× the heap the entries are weighed at, so the bound was not the memory
 * (measured: memory-idempotency-cache.memory.test.ts; docs/benchmarks.md).
 */
const flat = (s: string): string => Buffer.from(s, 'utf8').toString('utf8');

export const DEFAULT_IDEMPOTENCY_CACHE_BYTES = 32 * 1024 * 1024;

/**
 * What one entry costs on the V8 heap beyond its key's and value's characters (one byte each: keys
 * and values are ASCII): the Map's slot and its share of the table, the {value, expiresAt} object,
 * the strings' headers. Measured with 200,000 gateway keys: 130–210 bytes (the upper end while the
 * Map's table has grown and is half empty); the estimate takes the upper end.
 */
export const ENTRY_OVERHEAD_BYTES = 210;

/** The estimated heap bytes of one cache entry. */
export const entryBytes = (key: string, value: string): number => key.length + value.length + ENTRY_OVERHEAD_BYTES;

/**
 * The in-process IdempotencyCache (single gateway process). O(1) get/set, lazy expiry on read,
 * bounded in bytes by two rotating generations: no sweep timer to keep the process alive or to stop.
 * Dropping an entry early is safe: a miss proves nothing and the ledger decides.
 */
export function createMemoryIdempotencyCache(options: MemoryIdempotencyCacheOptions = {}): IdempotencyCache {
  const maxBytes = options.maxBytes ?? DEFAULT_IDEMPOTENCY_CACHE_BYTES;
  const entries = new RotatingTtlMap<string>({
    // The byte bound decides; the entry bound only guards against a mis-weighed entry.
    maxEntries: Math.max(2, Math.ceil(maxBytes / ENTRY_OVERHEAD_BYTES)),
    maxBytes,
    weigh: entryBytes,
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
      entries.set(flat(key), flat(value), ttlMs);
    },
    async close() {
      entries.clear();
    },
  };
}
