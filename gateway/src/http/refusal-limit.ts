import { GatewayError } from '@loyalty-gateway/core';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import './fastify-types.js';

export interface RefusalLimitOptions {
  /** Refused requests (401, 403) one client address may cause per window before it is answered 429 (GATEWAY_REFUSED_LIMIT). */
  max: number;
  windowMs?: number | undefined;
  /** Shared across gateway processes when given (REDIS_URL); in-process otherwise. */
  redis?: Redis | null | undefined;
  /** Told when Redis fails: the limiter then lets requests through (the ledger and auth still hold). */
  onError?: ((error: unknown) => void) | undefined;
  /**
   * With Redis: how long this process reuses an address's count read from Redis (default 1 s).
   * Every request reads its address's count; without this, that was two Redis commands per
   * request for counts that are almost always zero. Refusals counted here are seen at once (the
   * address's read is dropped); those counted by other processes within this delay.
   */
  redisReadCacheMs?: number | undefined;
}

/** Addresses whose Redis read is kept at most; past it the reads kept are dropped together. */
const READ_CACHE_ENTRIES = 10_000;

interface Window {
  count: number;
  start: number;
}

/** Fixed-window counters per address, in this process or in Redis (INCR + PEXPIRE on first hit). */
function counters(options: RefusalLimitOptions, windowMs: number) {
  const local = new Map<string, Window>();
  let swept = Date.now();
  const readCacheMs = options.redisReadCacheMs ?? 1_000;
  /** Redis's answer per address and when it was read (see redisReadCacheMs). */
  const redisReads = new Map<string, { count: number; ttlMs: number; at: number }>();
  return {
    async read(address: string): Promise<{ count: number; ttlMs: number }> {
      if (options.redis) {
        const now = Date.now();
        const kept = redisReads.get(address);
        if (kept && now - kept.at < readCacheMs) return { count: kept.count, ttlMs: Math.max(0, kept.ttlMs - (now - kept.at)) };
        const key = `lg:refused:${address}`;
        const [count, ttl] = await Promise.all([options.redis.get(key), options.redis.pttl(key)]);
        const state = { count: Number(count ?? 0), ttlMs: Math.max(0, ttl) };
        if (redisReads.size >= READ_CACHE_ENTRIES) redisReads.clear();
        redisReads.set(address, { ...state, at: now });
        return state;
      }
      const window = local.get(address);
      const now = Date.now();
      if (!window || window.start + windowMs <= now) return { count: 0, ttlMs: 0 };
      return { count: window.count, ttlMs: window.start + windowMs - now };
    },
    async add(address: string): Promise<void> {
      if (options.redis) {
        const key = `lg:refused:${address}`;
        redisReads.delete(address);
        const count = await options.redis.incr(key);
        if (count === 1) await options.redis.pexpire(key, windowMs);
        return;
      }
      const now = Date.now();
      if (now - swept >= windowMs) {
        swept = now;
        for (const [key, window] of local) if (window.start + windowMs <= now) local.delete(key);
      }
      const window = local.get(address);
      if (!window || window.start + windowMs <= now) local.set(address, { count: 1, start: now });
      else window.count += 1;
    },
  };
}

/**
 * Unauthenticated work is bounded per client address: every request answered 401 or 403 (a bad
 * signature, an unknown connection, a wrong admin token, a featured door's refused credentials)
 * counts against the address it came from (`request.ip`, which honours GATEWAY_TRUSTED_PROXIES);
 * past `max` in a window, that address is answered 429 `rate_limited` with Retry-After before any
 * work is done, on every route but the health probes. Authenticated traffic never counts, so a
 * merchant behind the same address as an attacker keeps its own per-connection budget until the
 * attacker's refusals reach the limit. Redis errors let requests through.
 */
export function registerRefusalLimit(app: FastifyInstance, options: RefusalLimitOptions): void {
  const windowMs = options.windowMs ?? 60_000;
  const store = counters(options, windowMs);
  const failOpen = (error: unknown) => options.onError?.(error);

  app.addHook('onRequest', async (request) => {
    if (request.routeOptions?.config?.probe === true) return;
    let state: { count: number; ttlMs: number };
    try {
      state = await store.read(request.ip);
    } catch (error) {
      failOpen(error);
      return;
    }
    if (state.count >= options.max) {
      throw new GatewayError('rate_limited', {
        message: 'Too many refused requests from this address. Retry after the Retry-After delay with valid credentials.',
        headers: { 'retry-after': String(Math.max(1, Math.ceil(state.ttlMs / 1000))) },
      });
    }
  });

  app.addHook('onResponse', async (request, reply) => {
    if (reply.statusCode !== 401 && reply.statusCode !== 403) return;
    await store.add(request.ip).catch(failOpen);
  });
}
