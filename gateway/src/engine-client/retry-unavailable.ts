import { setTimeout as sleep } from 'node:timers/promises';
import { failureKind } from './engine-call-failure.js';

/** Pauses before the 1st and 2nd extra attempt: at most 2 retries, short. */
export const RETRY_DELAYS_MS = [50, 200] as const;

/**
 * Retry a read-only call while the engine is unreachable (connection refused or reset, 502/503/504).
 * Never after a timeout: the call's whole deadline is spent, and checkout is waiting. Never for
 * an EngineError: that is the engine's answer. Only ping and eligibility use this; earn, reverse,
 * redeem and catalogSync are never retried here (a lost answer would turn a first success into
 * `duplicate` / ALREADY_PROCESSED); the vendor retries those instead.
 */
export async function retryUnavailable<T>(call: () => Promise<T>, delaysMs: readonly number[] = RETRY_DELAYS_MS): Promise<T> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await call();
    } catch (error) {
      const kind = failureKind(error);
      const retryable = kind === 'connection' || kind === 'unavailable_status';
      if (!retryable || attempt >= delaysMs.length) throw error;
      await sleep(delaysMs[attempt]);
    }
  }
}
