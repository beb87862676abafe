import type { EngineCallOptions, LoyaltyEngine, MerchantSummary } from '@loyalty-gateway/core';
import { MAX_BATCH_CALLS } from '@loyalty-gateway/engine';
import { z } from 'zod';
import { createEngineCallPolicy, ENGINE_CALL, type CircuitState } from './engine-call-policy.js';
import { engineUnavailable } from './engine-call-failure.js';
import { createEngineTransport } from './engine-transport.js';

const positiveInt = z.number().int().positive();

/** Options of the HTTP engine, checked once (a bad value is a programming error). */
export const HttpEngineOptions = z
  .strictObject({
    /** Base URL of the engine service, e.g. http://127.0.0.1:4000 (a path prefix is kept). */
    url: z.url({ protocol: /^https?$/, message: 'must be an http:// or https:// URL' }),
    /** Bearer token the engine service expects (ENGINE_TOKEN there). */
    token: z.string().min(1).optional(),
    /** Deadline of each port call (retries included), from the call to the last byte of the answer. */
    timeoutMs: positiveInt.default(ENGINE_CALL.timeoutMs),
    /**
     * Kept back from the budget the engine is given (x-engine-budget-ms), for the answer to travel
     * back: the engine stops committing this long before the client gives up. Default: a tenth of
     * `timeoutMs`, at most ENGINE_CALL.maxMarginMs.
     */
    deadlineMarginMs: z.number().int().min(0).optional(),
    /** Keep-alive sockets at most. */
    connections: positiveInt.default(16),
    /**
     * Calls one `POST /v1/commands` request carries at most: the calls of one event-loop turn (and
     * those waiting for a busy socket) travel together (engine-transport.ts). 0: every call on its
     * own single-command endpoint.
     */
    maxBatch: z.number().int().min(0).max(MAX_BATCH_CALLS).default(ENGINE_CALL.maxBatch),
    breaker: z
      .strictObject({
        failureThreshold: positiveInt.default(ENGINE_CALL.breaker.failureThreshold),
        coolDownMs: positiveInt.default(ENGINE_CALL.breaker.coolDownMs),
      })
      .prefault({}),
    /** Pauses before each retry of ping / eligibility (tests shorten them). */
    retryDelaysMs: z
      .array(z.number().int().min(0))
      .max(2)
      .default([...ENGINE_CALL.readOnlyRetryDelaysMs]),
  })
  .refine((o) => o.deadlineMarginMs === undefined || o.deadlineMarginMs < o.timeoutMs, {
    message: 'deadlineMarginMs must be smaller than timeoutMs',
    path: ['deadlineMarginMs'],
  });
export type HttpEngineOptions = z.input<typeof HttpEngineOptions>;

/** The port over HTTP, plus the breaker's state for readiness and diagnostics. */
export interface HttpEngine extends LoyaltyEngine {
  circuitState(): CircuitState;
}

/**
 * The LoyaltyEngine port as a client of the engine service (engine/src/http). Throws only
 * EngineError (the engine's answer, same code and message) and EngineUnavailableError (no answer:
 * refused, reset, timed out, 502/503/504, or the circuit is open). Every call goes through the
 * engine-call policy (engine-call-policy.ts): one circuit breaker, and retries of the read-only
 * calls (ping, eligibility, findOutlet, listMerchants) only. Each port call has one deadline: now +
 * `timeoutMs`, or the caller's `options.deadline` when earlier; the engine is told what is left of
 * it with every attempt and commits nothing past it.
 */
export function createHttpEngine(input: HttpEngineOptions): HttpEngine {
  const options = HttpEngineOptions.parse(input);
  const marginMs = options.deadlineMarginMs ?? Math.min(ENGINE_CALL.maxMarginMs, Math.ceil(options.timeoutMs / 10));
  const transport = createEngineTransport({
    url: new URL(options.url),
    token: options.token,
    timeoutMs: options.timeoutMs,
    connections: options.connections,
    marginMs,
    maxBatch: options.maxBatch,
  });
  const policy = createEngineCallPolicy({ ...options.breaker, retryDelaysMs: options.retryDelaysMs });
  /** The call's deadline; a caller's deadline too close to call at all fails here, outside the breaker (the engine is not at fault). */
  const deadlineOf = (label: string, call: EngineCallOptions | undefined): number => {
    const deadline = Math.min(Date.now() + options.timeoutMs, call?.deadline ?? Infinity);
    if (deadline - Date.now() <= marginMs)
      throw engineUnavailable('timeout', `${label}: the caller's deadline leaves no time to call the engine; not sent`);
    return deadline;
  };
  /** One port call within its deadline, through the engine-call policy; `readOnly` calls are the only ones retried. */
  const send = async <T>(readOnly: boolean, method: 'GET' | 'POST', path: string, body?: unknown, call?: EngineCallOptions) => {
    const label = `${method} ${path}`;
    const deadline = deadlineOf(label, call);
    return policy.run(label, readOnly, () => transport.call<T>(method, path, body, deadline));
  };
  const write = <T>(path: string, body: unknown, call?: EngineCallOptions) => send<T>(false, 'POST', path, body, call);
  const read = <T>(method: 'GET' | 'POST', path: string, body?: unknown, call?: EngineCallOptions) =>
    send<T>(true, method, path, body, call);

  return {
    earn: (command, call) => write('/v1/earn', command, call),
    raiseSale: (command, call) => write('/v1/raise-sale', command, call),
    reverse: (command, call) => write('/v1/reverse', command, call),
    withdrawRefunds: (command, call) => write('/v1/withdraw-refunds', command, call),
    redeem: (command, call) => write('/v1/redeem', command, call),
    catalogSync: (command, call) => write('/v1/catalog-sync', command, call),
    eligibility: (command, call) => read('POST', '/v1/eligibility', command, call),
    // Commits nothing: retried like the other reads.
    previewEarn: (command, call) => read('POST', '/v1/preview-earn', command, call),
    findOutlet: (query) => read('POST', '/v1/find-outlet', query),
    reversedOrders: (query) => read('POST', '/v1/reversed-orders', query),
    listMerchants: async () => (await read<{ merchants: MerchantSummary[] }>('GET', '/v1/merchants')).merchants,
    ping: async () => {
      await read('GET', '/v1/ping');
    },
    close: () => transport.close(),
    circuitState: () => policy.state,
  };
}
