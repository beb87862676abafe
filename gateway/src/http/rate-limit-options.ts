import { GatewayError } from '@loyalty-gateway/core';
import type { RateLimitPluginOptions } from '@fastify/rate-limit';
import type { Redis } from 'ioredis';
import { clientKey } from './client-key.js';
import './fastify-types.js';
import { WindowCounterStore } from './window-counter-store.js';

export interface RateLimitSettings {
  /** Requests per window per connection (GATEWAY_RATE_LIMIT). */
  max: number;
  /** Window length; one minute unless a test shortens it. */
  windowMs?: number | undefined;
  /** Shared counters across gateway processes when given (REDIS_URL); in-process otherwise. */
  redis?: Redis | null | undefined;
}

/**
 * @fastify/rate-limit configured for the gateway: counted per connection id AFTER authentication
 * (preHandler, so unauthenticated noise never consumes a merchant's budget), answered with the
 * Error body, code `rate_limited` and Retry-After in whole seconds. Redis errors fail open
 * (skipOnError): a Redis outage must not stop sales; the ledger still guarantees exactly-once.
 */
export function rateLimitOptions(settings: RateLimitSettings): RateLimitPluginOptions {
  return {
    global: true,
    hook: 'preHandler',
    max: settings.max,
    timeWindow: settings.windowMs ?? 60_000,
    keyGenerator: (request) => request.connection?.id ?? `ip:${clientKey(request.ip)}`,
    // Shared counters in Redis, or in-process counters that never forget an active connection.
    ...(settings.redis ? { redis: settings.redis, nameSpace: 'lg:rate:' } : { store: WindowCounterStore }),
    skipOnError: true,
    errorResponseBuilder: (_request, context) =>
      new GatewayError('rate_limited', { headers: { 'retry-after': String(Math.max(1, Math.ceil(context.ttl / 1000))) } }),
  };
}
