import type { IdempotencyCache } from '@loyalty-gateway/core';
import { createMemoryIdempotencyCache } from './memory-idempotency-cache.js';
import { createRedisClient } from './create-redis-client.js';
import { createRedisIdempotencyCache } from './redis-idempotency-cache.js';

export interface IdempotencyCacheOptions {
  /** REDIS_URL: shared across gateway processes when set; in-process otherwise. */
  redisUrl?: string | undefined;
  keyPrefix?: string | undefined;
  /** In-process only: the bound on the cache's memory (GATEWAY_IDEMPOTENCY_CACHE_MB). */
  maxBytes?: number | undefined;
  /** Redis only: report failures here and degrade to a miss instead of throwing. */
  onError?: ((error: unknown, operation: 'get' | 'set') => void) | undefined;
}

/** The IdempotencyCache the configuration asks for: Redis when REDIS_URL is set, memory otherwise. */
export function createIdempotencyCache(options: IdempotencyCacheOptions = {}): IdempotencyCache {
  if (!options.redisUrl) return createMemoryIdempotencyCache(options.maxBytes === undefined ? {} : { maxBytes: options.maxBytes });
  return createRedisIdempotencyCache({
    redis: createRedisClient(options.redisUrl),
    ownsClient: true,
    ...(options.keyPrefix === undefined ? {} : { keyPrefix: options.keyPrefix }),
    ...(options.onError ? { onError: options.onError } : {}),
  });
}
