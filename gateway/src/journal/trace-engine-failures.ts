import type { LoyaltyEngine } from '@loyalty-gateway/core';
import { engineCallFailure } from './engine-call-cause.js';
import { noteFailure } from './failure-cause.js';

/** The port's calls a request makes (webhook doors, checkout, a replay): each one's failure is noted with its name. */
const TRACED = ['earn', 'raiseSale', 'previewEarn', 'reverse', 'withdrawRefunds', 'eligibility', 'redeem', 'catalogSync'] as const;

/**
 * The engine port, noting on every failed call which operation failed, what happened and how long
 * it took (noteFailure), so the request's journal entry says why it answered 5xx. The error is
 * thrown on unchanged: the pipeline still turns an unavailable engine into engine_unavailable_retry.
 */
export function traceEngineFailures<E extends LoyaltyEngine>(engine: E): E {
  const traced: E = { ...engine };
  for (const operation of TRACED) {
    const call = (engine[operation] as (...args: unknown[]) => Promise<unknown>).bind(engine);
    // One reaction on the engine's promise, not an async wrapper around it.
    (traced as unknown as Record<string, unknown>)[operation] = (...args: unknown[]): Promise<unknown> => {
      const started = performance.now();
      const failed = (error: unknown): never => {
        const cause = engineCallFailure(operation, error, performance.now() - started);
        throw cause ? noteFailure(error, cause) : error;
      };
      let answer: Promise<unknown>;
      try {
        answer = call(...args);
      } catch (error) {
        answer = Promise.reject(error);
      }
      return answer.then(undefined, failed);
    };
  }
  return traced;
}
