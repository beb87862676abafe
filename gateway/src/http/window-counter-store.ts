import type { FastifyRateLimitStore } from '@fastify/rate-limit';

interface Counter {
  count: number;
  /** When this key's current window began (ms). */
  start: number;
}

type Callback = (error: Error | null, result?: { current: number; ttl: number }) => void;

/**
 * In-process rate-limit counters: one fixed window per key (a connection id), with no cap on how
 * many keys it holds. @fastify/rate-limit's default store is an LRU of 5,000 keys: past that many
 * connections active in one window it forgets counters, and the limit silently stops working for
 * the evicted ones. Here a counter lives exactly as long as its window; ended windows are swept
 * at most once per window (amortised O(1), no per-insert eviction), so memory follows the number
 * of connections that sent a request in the last window (about 100 bytes each) and the limit
 * holds for every one of them.
 */
export class WindowCounterStore implements FastifyRateLimitStore {
  private readonly counters = new Map<string, Counter>();
  private sweptAt: number;

  /** The plugin constructs it with its options (unused); tests pass a clock. */
  constructor(
    _pluginOptions?: unknown,
    private readonly now: () => number = Date.now,
  ) {
    this.sweptAt = now();
  }

  get size(): number {
    return this.counters.size;
  }

  incr(key: string, callback: Callback, timeWindow: number): void {
    const now = this.now();
    this.sweep(now, timeWindow);
    let counter = this.counters.get(key);
    if (counter === undefined || counter.start + timeWindow <= now) {
      counter = { count: 0, start: now };
      this.counters.set(key, counter);
    }
    counter.count += 1;
    callback(null, { current: counter.count, ttl: counter.start + timeWindow - now });
  }

  /** The current state without counting a request (the plugin's `increment: false`). */
  read(key: string, callback: Callback, timeWindow: number): void {
    const now = this.now();
    const counter = this.counters.get(key);
    if (counter === undefined || counter.start + timeWindow <= now) callback(null, { current: 0, ttl: 0 });
    else callback(null, { current: counter.count, ttl: counter.start + timeWindow - now });
  }

  child(routeOptions: unknown): FastifyRateLimitStore {
    return new WindowCounterStore(routeOptions, this.now);
  }

  private sweep(now: number, timeWindow: number): void {
    if (now - this.sweptAt < timeWindow) return;
    this.sweptAt = now;
    for (const [key, counter] of this.counters) if (counter.start + timeWindow <= now) this.counters.delete(key);
  }
}
