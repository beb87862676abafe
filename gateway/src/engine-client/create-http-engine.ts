import type { LoyaltyEngine } from '@loyalty-gateway/core';
import { z } from 'zod';
import { CircuitBreaker, type CircuitState } from './circuit-breaker.js';
import { createEngineTransport } from './engine-transport.js';
import { RETRY_DELAYS_MS, retryUnavailable } from './retry-unavailable.js';

const positiveInt = z.number().int().positive();

/** Options of the HTTP engine, checked once (a bad value is a programming error). */
export const HttpEngineOptions = z.strictObject({
  /** Base URL of the engine service, e.g. http://127.0.0.1:4000 (a path prefix is kept). */
  url: z.url({ protocol: /^https?$/, message: 'must be an http:// or https:// URL' }),
  /** Bearer token the engine service expects (ENGINE_TOKEN there). */
  token: z.string().min(1).optional(),
  /** Deadline of each call, connect to last byte. */
  timeoutMs: positiveInt.default(2_000),
  /** Keep-alive sockets at most. */
  connections: positiveInt.default(16),
  breaker: z.strictObject({ failureThreshold: positiveInt.default(5), coolDownMs: positiveInt.default(10_000) }).prefault({}),
  /** Milliseconds now; for the breaker's cool-down. */
  clock: z.custom<() => number>((value) => typeof value === 'function').default(() => Date.now),
  /** Pauses before each retry of ping / eligibility (tests shorten them). */
  retryDelaysMs: z.array(z.number().int().min(0)).max(2).default([...RETRY_DELAYS_MS]),
});
export type HttpEngineOptions = z.input<typeof HttpEngineOptions>;

/** The port over HTTP, plus the breaker's state for readiness and diagnostics. */
export interface HttpEngine extends LoyaltyEngine {
  circuitState(): CircuitState;
}

/**
 * The LoyaltyEngine port as a client of the engine service (engine/src/http). Throws only
 * EngineError (the engine's answer, same code and message) and EngineUnavailableError (no answer:
 * refused, reset, timed out, 502/503/504, or the circuit is open). Only ping and eligibility are
 * retried; every call goes through one circuit breaker.
 */
export function createHttpEngine(input: HttpEngineOptions): HttpEngine {
  const options = HttpEngineOptions.parse(input);
  const transport = createEngineTransport({
    url: new URL(options.url), token: options.token, timeoutMs: options.timeoutMs, connections: options.connections,
  });
  const breaker = new CircuitBreaker({ ...options.breaker, clock: options.clock });
  const once = <T>(path: string, body: unknown) => breaker.run(`POST ${path}`, () => transport.call<T>('POST', path, body));
  const retried = <T>(method: 'GET' | 'POST', path: string, body?: unknown) =>
    breaker.run(`${method} ${path}`, () => retryUnavailable(() => transport.call<T>(method, path, body), options.retryDelaysMs));

  return {
    earn: (command) => once('/v1/earn', command),
    reverse: (command) => once('/v1/reverse', command),
    redeem: (command) => once('/v1/redeem', command),
    catalogSync: (command) => once('/v1/catalog-sync', command),
    eligibility: (command) => retried('POST', '/v1/eligibility', command),
    ping: async () => {
      await retried('GET', '/v1/ping');
    },
    close: () => transport.close(),
    circuitState: () => breaker.state,
  };
}
