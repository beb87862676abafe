import { EngineUnavailableError } from '@loyalty-gateway/core';
import { engineUnavailable } from './engine-call-failure.js';

export type CircuitState = 'closed' | 'open' | 'half-open';

export interface CircuitBreakerOptions {
  /** Consecutive unavailable calls that open the circuit. */
  failureThreshold: number;
  /** How long an open circuit fails fast before one trial call is let through. */
  coolDownMs: number;
  /** Milliseconds now (injectable for tests). */
  clock: () => number;
}

/**
 * Consecutive-failure circuit breaker. Only EngineUnavailableError counts as a failure (an
 * EngineError is an answer: the engine is up). Open: calls fail fast with EngineUnavailableError,
 * without touching the network, until the cool-down passes; then exactly one trial call runs
 * (half-open) while the others keep failing fast; its outcome closes or re-opens the circuit.
 */
export class CircuitBreaker {
  private failures = 0;
  private openedAt = 0;
  private current: CircuitState = 'closed';
  private trialRunning = false;

  constructor(private readonly options: CircuitBreakerOptions) {}

  get state(): CircuitState {
    return this.current;
  }

  async run<T>(label: string, call: () => Promise<T>): Promise<T> {
    const trial = this.admit(label);
    try {
      const result = await call();
      this.succeeded();
      return result;
    } catch (error) {
      if (error instanceof EngineUnavailableError) this.failed();
      else this.succeeded();
      throw error;
    } finally {
      if (trial) this.trialRunning = false;
    }
  }

  /** Whether this call may go out; true when it is the half-open trial. Throws when failing fast. */
  private admit(label: string): boolean {
    if (this.current === 'closed') return false;
    if (this.current === 'open' && this.options.clock() - this.openedAt >= this.options.coolDownMs) this.current = 'half-open';
    if (this.current === 'half-open' && !this.trialRunning) {
      this.trialRunning = true;
      return true;
    }
    throw engineUnavailable('circuit_open', `${label}: circuit open after ${this.failures} consecutive failures; failing fast`);
  }

  private succeeded(): void {
    this.failures = 0;
    this.current = 'closed';
  }

  private failed(): void {
    this.failures += 1;
    if (this.current === 'half-open' || this.failures >= this.options.failureThreshold) {
      this.current = 'open';
      this.openedAt = this.options.clock();
    }
  }
}
