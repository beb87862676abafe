import { EngineUnavailableError } from '@loyalty-gateway/core';
import {
  BrokenCircuitError,
  CircuitState as BreakerState,
  ConsecutiveBreaker,
  IterableBackoff,
  circuitBreaker,
  handleWhen,
  retry,
} from 'cockatiel';
import { engineUnavailable, failureKind } from './engine-call-failure.js';

/**
 * The engine-call policy's budget, stated once: how the gateway calls a remote engine service
 * (LOYALTY_ENGINE_URL). Every port call has one deadline, retries included; the engine is told
 * what is left of it minus a margin and commits nothing past it. All calls go through one circuit
 * breaker; only read-only calls are retried, and only while the engine is unreachable.
 */
export const ENGINE_CALL = Object.freeze({
  /** Deadline of each port call (retries and the wait for a socket included), from the call to the last byte. */
  timeoutMs: 2_000,
  /** Kept back from the budget the engine is told, for the answer to travel back: a tenth of the deadline, at most this. */
  maxMarginMs: 100,
  /** Calls one batch request (`POST /v1/commands`) carries at most: those of one event-loop turn and those waiting for a socket. */
  maxBatch: 64,
  breaker: Object.freeze({
    /** Consecutive unavailable calls that open the circuit (an EngineError is an answer: it resets the count). */
    failureThreshold: 5,
    /** How long an open circuit fails fast before one trial call is let through. */
    coolDownMs: 10_000,
  }),
  /**
   * Pauses before the 1st and 2nd extra attempt of a read-only call (ping, eligibility, previewEarn,
   * findOutlet, reversedOrders, listMerchants) while the engine is unreachable (refused, reset, 502/503/504); never
   * after a timeout (the deadline is spent). Earn, raiseSale, reverse, withdrawRefunds, redeem and catalogSync are never
   * retried: a lost answer would turn a first success into `duplicate`; the vendor retries those.
   */
  readOnlyRetryDelaysMs: Object.freeze([50, 200]),
});

export type CircuitState = 'closed' | 'open' | 'half-open';

export interface EngineCallPolicyOptions {
  failureThreshold: number;
  /** How long an open circuit fails fast, on cockatiel's clock (Date.now: tests move it with vitest's fake Date). */
  coolDownMs: number;
  /** Pauses before each retry of a read-only call. */
  retryDelaysMs: readonly number[];
}

export interface EngineCallPolicy {
  /**
   * Run one port call through the breaker; a read-only call is retried inside it while the engine
   * is unreachable. Throws what the call throws, or EngineUnavailableError (`circuit_open`)
   * without calling when the circuit is open or a half-open trial is already out.
   */
  run<T>(label: string, readOnly: boolean, call: () => Promise<T>): Promise<T>;
  readonly state: CircuitState;
}

const STATES: Record<BreakerState, CircuitState> = {
  [BreakerState.Closed]: 'closed',
  [BreakerState.Open]: 'open',
  [BreakerState.HalfOpen]: 'half-open',
  [BreakerState.Isolated]: 'open',
};

/** What came back from the engine: its value, or an error that is its answer (not unavailability). */
type Answer<T> = { value: T } | { answer: unknown };

/**
 * The engine-call policy on cockatiel: a consecutive-failure circuit breaker in which only
 * EngineUnavailableError counts (an EngineError is the engine's answer: it closes the circuit and
 * resets the count), around a retry policy for read-only calls. Open: calls fail fast without
 * touching the network until the cool-down passes; then exactly one trial call runs while the others
 * keep failing fast; its outcome closes or re-opens the circuit for a fresh cool-down.
 */
export function createEngineCallPolicy(options: EngineCallPolicyOptions): EngineCallPolicy {
  const consecutive = new ConsecutiveBreaker(options.failureThreshold);
  const breaker = circuitBreaker(
    handleWhen((error) => error instanceof EngineUnavailableError),
    {
      breaker: consecutive,
      halfOpenAfter: options.coolDownMs,
    },
  );
  const unreachable = (error: unknown) => {
    const kind = failureKind(error);
    return kind === 'connection' || kind === 'unavailable_status';
  };
  const readOnlyRetry =
    options.retryDelaysMs.length === 0
      ? null
      : retry(handleWhen(unreachable), { maxAttempts: options.retryDelaysMs.length, backoff: new IterableBackoff(options.retryDelaysMs) });
  /** The consecutive failures that opened the circuit (a late success of a call sent before may reset the count since). */
  let openedAfter = 0;
  breaker.onBreak(() => {
    openedAfter = consecutive.state;
  });
  const failFast = (label: string) =>
    engineUnavailable('circuit_open', `${label}: circuit open after ${openedAfter} consecutive failures; failing fast`);

  return {
    async run<T>(label: string, readOnly: boolean, call: () => Promise<T>): Promise<T> {
      // Cockatiel queues calls behind a half-open trial; the engine client fails them fast instead.
      if (breaker.state === BreakerState.HalfOpen) throw failFast(label);
      const attempt = readOnly && readOnlyRetry ? () => readOnlyRetry.execute(call) : call;
      let outcome: Answer<T>;
      try {
        outcome = await breaker.execute(async (): Promise<Answer<T>> => {
          try {
            return { value: await attempt() };
          } catch (error) {
            if (error instanceof EngineUnavailableError) throw error;
            return { answer: error };
          }
        });
      } catch (error) {
        if (error instanceof BrokenCircuitError) throw failFast(label);
        throw error;
      }
      if ('answer' in outcome) throw outcome.answer;
      return outcome.value;
    },
    get state() {
      return STATES[breaker.state];
    },
  };
}
