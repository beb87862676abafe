import { GatewayError } from '@loyalty-gateway/core';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { clientKey } from './client-key.js';
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

/** An address's refusals in the current window and the time left in it. */
interface State {
  count: number;
  ttlMs: number;
}

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
  const redisReads = new Map<string, State & { at: number }>();
  return {
    /** In this process (and from the Redis read kept): at once, without a promise. */
    read(address: string): State | Promise<State> {
      if (options.redis) {
        const now = Date.now();
        const kept = redisReads.get(address);
        if (kept && now - kept.at < readCacheMs) return { count: kept.count, ttlMs: Math.max(0, kept.ttlMs - (now - kept.at)) };
        const key = `lg:refused:${address}`;
        return Promise.all([options.redis.get(key), options.redis.pttl(key)]).then(([count, ttl]) => {
          const state = { count: Number(count ?? 0), ttlMs: Math.max(0, ttl) };
          if (redisReads.size >= READ_CACHE_ENTRIES) redisReads.clear();
          redisReads.set(address, { ...state, at: now });
          return state;
        });
      }
      const window = local.get(address);
      const now = Date.now();
      if (!window || window.start + windowMs <= now) return { count: 0, ttlMs: 0 };
      return { count: window.count, ttlMs: window.start + windowMs - now };
    },
    /** In this process: at once (undefined); with Redis, once Redis counted it. */
    add(address: string): Promise<void> | undefined {
      if (options.redis) {
        const { redis } = options;
        const key = `lg:refused:${address}`;
        redisReads.delete(address);
        return redis.incr(key).then(async (count) => {
          if (count === 1) await redis.pexpire(key, windowMs);
        });
      }
      const now = Date.now();
      if (now - swept >= windowMs) {
        swept = now;
        for (const [key, window] of local) if (window.start + windowMs <= now) local.delete(key);
      }
      const window = local.get(address);
      if (!window || window.start + windowMs <= now) local.set(address, { count: 1, start: now });
      else window.count += 1;
      return undefined;
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
  const store = counters(options, windowMs);
  const failOpen = (error: unknown) => options.onError?.(error);

  const refusal = (state: State): GatewayError | undefined =>
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
    if (request.routeOptions?.config?.probe === true) return done();
    let state: State | Promise<State>;
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
    let added: Promise<void> | undefined;
    try {
      added = store.add(clientKey(request.ip));
    } catch (error) {
      return letThrough(done)(error);
    }
    if (added) added.then(() => done(), letThrough(done));
    else done();
  });
}
