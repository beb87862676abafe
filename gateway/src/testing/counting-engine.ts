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
  const counted: E = {
    ...engine,
    earn: (command, options) => {
      calls.earn += 1;
      return engine.earn(command, options);
    },
    reverse: (command, options) => {
      calls.reverse += 1;
      return engine.reverse(command, options);
    },
    eligibility: (command, options) => {
      calls.eligibility += 1;
      return engine.eligibility(command, options);
    },
    redeem: (command, options) => {
      calls.redeem += 1;
      return engine.redeem(command, options);
    },
    catalogSync: (command, options) => {
      calls.catalogSync += 1;
      return engine.catalogSync(command, options);
    },
  };
  return { engine: counted, calls };
}
