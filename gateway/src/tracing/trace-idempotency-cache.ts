import { inSpan, type IdempotencyCache } from '@loyalty-gateway/core';

/**
 * The idempotency cache with a span per read and write (hit or miss, never the keys: they hold
 * vendors' transaction ids). With Redis its command is the child span. Only wrapped when tracing is on.
 */
export function traceIdempotencyCache(cache: IdempotencyCache): IdempotencyCache {
  return {
    get: (key) =>
      inSpan('idempotency get', {}, async (span) => {
        const value = await cache.get(key);
        span.set({ 'loyalty.cache.hit': value !== null });
        return value;
      }),
    getMany: (keys) =>
      inSpan('idempotency get', { 'loyalty.cache.keys': keys.length }, async (span) => {
        const values = await cache.getMany(keys);
        span.set({ 'loyalty.cache.hit': values.some((value) => value !== null) });
        return values;
      }),
    set: (key, value, ttlMs) => inSpan('idempotency set', {}, () => cache.set(key, value, ttlMs)),
    close: () => cache.close(),
  };
}
