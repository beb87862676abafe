import type { LoyaltyEngine } from '@loyalty-gateway/core';

/** The engine calls a test can count. */
export interface EngineCallCounts {
  earn: number;
  reverse: number;
  eligibility: number;
  redeem: number;
  catalogSync: number;
}

/**
 * A decorator over a real engine that counts the calls reaching it; every call still runs on the
 * real ledger (not a mock). How a test proves the gateway answered from its cache without the
 * engine: the count does not move.
 */
export function countingEngine<E extends LoyaltyEngine>(engine: E): { engine: E; calls: EngineCallCounts } {
  const calls: EngineCallCounts = { earn: 0, reverse: 0, eligibility: 0, redeem: 0, catalogSync: 0 };
  const counted: E = { ...engine };
  for (const method of Object.keys(calls) as Array<keyof EngineCallCounts>) {
    const call = engine[method] as (command: unknown, options?: unknown) => Promise<unknown>;
    (counted as Record<keyof EngineCallCounts, unknown>)[method] = (command: unknown, options?: unknown) => {
      calls[method] += 1;
      return call.call(engine, command, options);
    };
  }
  return { engine: counted, calls };
}
