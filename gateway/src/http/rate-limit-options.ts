import { GatewayError } from '@loyalty-gateway/core';
import type { RateLimitPluginOptions } from '@fastify/rate-limit';
import type { Redis } from 'ioredis';
import { clientKey } from './client-key.js';
import './fastify-types.js';
import { windowCounterStore } from './window-counter-store.js';
import { LocalWindowCounter, RedisWindowCounter } from './window-counter.js';

export interface RateLimitSettings {
  /** Requests per window per connection (GATEWAY_RATE_LIMIT). */
  max: number;
  /** Window length; one minute unless a test shortens it. */
  windowMs?: number | undefined;
  /** Shared counters across gateway processes when given (REDIS_URL); in-process otherwise. */
  redis?: Redis | null | undefined;
  /** Milliseconds since the epoch: the in-process counters' clock. */
  clock?: (() => number) | undefined;
}

/**
 * @fastify/rate-limit configured for the gateway: counted per connection id AFTER authentication
 * (preHandler, so unauthenticated noise never consumes a merchant's budget), answered with the
 * Error body, code `rate_limited` and Retry-After in whole seconds. Redis errors fail open
 * (skipOnError): a Redis outage must not stop sales; the ledger still guarantees exactly-once.
 */
export function rateLimitOptions(settings: RateLimitSettings): RateLimitPluginOptions {
  const { redis } = settings;
  return {
    global: true,
    hook: 'preHandler',
    max: settings.max,
    timeWindow: settings.windowMs ?? 60_000,
    keyGenerator: (request) => request.connection?.id ?? `ip:${clientKey(request.ip)}`,
    // The gateway's window counter: shared in Redis, or in-process counters that never forget an active connection.
    store: windowCounterStore((scope) =>
      redis ? new RedisWindowCounter(redis, `lg:rate:${scope}`) : new LocalWindowCounter({ clock: settings.clock ?? Date.now }),
    ),
    skipOnError: true,
    errorResponseBuilder: (_request, context) =>
      new GatewayError('rate_limited', { headers: { 'retry-after': String(Math.max(1, Math.ceil(context.ttl / 1000))) } }),
  };
}
