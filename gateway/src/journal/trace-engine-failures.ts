import type { LoyaltyEngine } from '@loyalty-gateway/core';
import { REQUEST_CALLS, wrapEngineCalls } from '../engine-client/wrap-engine-calls.js';
import { engineCallFailure } from './engine-call-cause.js';
import { noteFailure } from './failure-cause.js';

/**
 * The engine port, noting on every failed call which operation failed, what happened and how long
 * it took (noteFailure), so the request's journal entry says why it answered 5xx. The error is
 * thrown on unchanged: the pipeline still turns an unavailable engine into engine_unavailable_retry.
 */
export function traceEngineFailures<E extends LoyaltyEngine>(engine: E): E {
  // One reaction on the engine's promise, not an async wrapper around it.
  // The port's calls a request makes (webhook doors, checkout, a replay): each one's failure is noted with its name.
  return wrapEngineCalls(engine, REQUEST_CALLS, (operation, call) => (...args) => {
    const started = performance.now();
    return call(...args).then(undefined, (error: unknown): never => {
      const cause = engineCallFailure(operation, error, performance.now() - started);
      throw cause ? noteFailure(error, cause) : error;
    });
  });
}
