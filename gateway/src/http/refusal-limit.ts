import { GatewayError } from '@loyalty-gateway/core';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { clientKey } from './client-key.js';
import './fastify-types.js';
import { LocalWindowCounter, RedisWindowCounter, type WindowCount } from './window-counter.js';
import { routeOf } from './route-of.js';

export interface RefusalLimitOptions {
  /** Refused requests (401, 403) one client address may cause per window before it is answered 429 (GATEWAY_REFUSED_LIMIT). */
  max: number;
  windowMs?: number | undefined;
  /** Shared across gateway processes when given (REDIS_URL); in-process otherwise. */
  redis?: Redis | null | undefined;
  /** Milliseconds since the epoch: the in-process counters' clock and the age of a kept Redis read. */
  clock?: (() => number) | undefined;
  /** Told when Redis fails: the limiter then lets requests through (the ledger and auth still hold). */
  onError?: ((error: unknown) => void) | undefined;
  /**
   * With Redis: how long this process reuses an address's count read from Redis (default 1 s).
   * Every request reads its address's count; without this, that was a Redis round trip per
   * request for counts that are almost always zero. Refusals counted here are seen at once (the
   * address's read is dropped); those counted by other processes within this delay.
   */
  redisReadCacheMs?: number | undefined;
}

/** Addresses whose Redis read is kept at most; past it the reads kept are dropped together. */
const READ_CACHE_ENTRIES = 10_000;

/**
 * The refusals per address: the gateway's window counter (window-counter.ts) under `lg:refused:`,
 * in this process or in Redis; with Redis, each address's read is kept `redisReadCacheMs`.
 */
function refusalCounter(options: RefusalLimitOptions, windowMs: number, clock: () => number) {
  if (!options.redis) {
    const local = new LocalWindowCounter({ clock });
    return { read: (address: string) => local.read(address, windowMs), add: (address: string) => local.hit(address, windowMs) };
  }
  const shared = new RedisWindowCounter(options.redis, 'lg:refused:');
  const readCacheMs = options.redisReadCacheMs ?? 1_000;
  /** Redis's answer per address and when it was read (see redisReadCacheMs). */
  const kept = new Map<string, WindowCount & { at: number }>();
  return {
    read(address: string): WindowCount | Promise<WindowCount> {
      const now = clock();
      const read = kept.get(address);
      if (read && now - read.at < readCacheMs) return { count: read.count, ttlMs: Math.max(0, read.ttlMs - (now - read.at)) };
      return shared.read(address).then((count) => {
        if (kept.size >= READ_CACHE_ENTRIES) kept.clear();
        kept.set(address, { ...count, at: now });
        return count;
      });
    },
    add(address: string): Promise<WindowCount> {
      kept.delete(address);
      return shared.hit(address, windowMs);
    },
  };
}

/**
 * Unauthenticated work is bounded per client address: every request answered 401 or 403 (a bad
 * signature, an unknown connection, a wrong admin token, a featured door's refused credentials)
 * counts against the client it came from (`request.ip`, which honours GATEWAY_TRUSTED_PROXIES, an
 * IPv6 client by its /64: clientKey);
 * past `max` in a window, that address is answered 429 `rate_limited` with Retry-After before any
 * work is done, on every route but the health probes. Authenticated traffic never counts, so a
 * merchant behind the same address as an attacker keeps its own per-connection budget until the
 * attacker's refusals reach the limit. Redis errors let requests through.
 */
export function registerRefusalLimit(app: FastifyInstance, options: RefusalLimitOptions): void {
  const windowMs = options.windowMs ?? 60_000;
  const store = refusalCounter(options, windowMs, options.clock ?? Date.now);
  const failOpen = (error: unknown) => options.onError?.(error);

  const refusal = (state: WindowCount): GatewayError | undefined =>
    state.count >= options.max
      ? new GatewayError('rate_limited', {
          message: 'Too many refused requests from this address. Retry after the Retry-After delay with valid credentials.',
          headers: { 'retry-after': String(Math.max(1, Math.ceil(state.ttlMs / 1000))) },
        })
      : undefined;

  /** A failure of the counters (Redis) is reported, and the request let through: the hook ends. */
  const letThrough = (done: () => void) => (error: unknown) => {
    failOpen(error);
    done();
  };

  // Callback hooks: every request passes them, and the in-process count answers without a promise.
  app.addHook('onRequest', (request, _reply, done) => {
    if (routeOf(request).config?.probe === true) return done();
    let state: WindowCount | Promise<WindowCount>;
    try {
      state = store.read(clientKey(request.ip));
    } catch (error) {
      return letThrough(done)(error);
    }
    if (!(state instanceof Promise)) return done(refusal(state));
    state.then((read) => done(refusal(read)), letThrough(done));
  });

  app.addHook('onResponse', (request, reply, done) => {
    if (reply.statusCode !== 401 && reply.statusCode !== 403) return done();
    let added: WindowCount | Promise<WindowCount>;
    try {
      added = store.add(clientKey(request.ip));
    } catch (error) {
      return letThrough(done)(error);
    }
    if (added instanceof Promise) added.then(() => done(), letThrough(done));
    else done();
  });
}
