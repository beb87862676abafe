import type { FastifyRateLimitOptions, FastifyRateLimitStore } from '@fastify/rate-limit';
import type { WindowCount, WindowCounter } from './window-counter.js';

type Callback = (error: Error | null, result?: { current: number; ttl: number }) => void;

/** The counter of one scope: '' for the plugin's global limit, `${method}${url}-` for a route with its own. */
export type CounterOfScope = (scope: string) => WindowCounter;

function answer(result: WindowCount | Promise<WindowCount>, callback: Callback): void {
  if (!(result instanceof Promise)) return callback(null, { current: result.count, ttl: result.ttlMs });
  result.then(
    (count) => callback(null, { current: count.count, ttl: count.ttlMs }),
    (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
  );
}

/**
 * @fastify/rate-limit's store over the gateway's WindowCounter (window-counter.ts): the plugin
 * constructs the store class it is given, and asks it for a child per route with a limit of its
 * own; each scope gets its counter from `counterOf` (a separate in-process counter, or the Redis
 * counter under the scope's key prefix, `lg:rate:POST/v1/earn/preview-…` as the plugin's own Redis
 * store names them).
 */
export function windowCounterStore(counterOf: CounterOfScope): new (options?: FastifyRateLimitOptions) => FastifyRateLimitStore {
  return class WindowCounterStore implements FastifyRateLimitStore {
    private readonly counter: WindowCounter;

    constructor(
      _pluginOptions?: FastifyRateLimitOptions,
      private readonly scope = '',
    ) {
      this.counter = counterOf(scope);
    }

    incr(key: string, callback: Callback, timeWindow: number): void {
      answer(this.counter.hit(key, timeWindow), callback);
    }

    /** The current state without counting a request (the plugin's `increment: false`). */
    read(key: string, callback: Callback, timeWindow: number): void {
      answer(this.counter.read(key, timeWindow), callback);
    }

    child(routeOptions: unknown): FastifyRateLimitStore {
      const route = (routeOptions as { routeInfo: { method: string; url: string } }).routeInfo;
      return new WindowCounterStore(undefined, `${this.scope}${route.method}${route.url}-`);
    }
  };
}
