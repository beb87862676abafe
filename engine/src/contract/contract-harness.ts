import { EngineError, GatewayError, type CustomerIdentifier, type LoyaltyEngine } from '@loyalty-gateway/core';
import { afterEach, beforeEach, expect } from 'vitest';
import type { EngineSeedInput } from '../seed/engine-seed.js';
import { SCOPE, testSeed } from '../testing/fixture.js';

/** An engine under contract test. `applySeed` is not part of the port: harnesses seed directly. */
export type ContractEngine = LoyaltyEngine & { applySeed(seed: EngineSeedInput): Promise<void> };

/** Opens a fresh, empty engine (own database) for one test; `close` releases everything. */
export type OpenContractEngine = () => Promise<{ engine: ContractEngine; close(): Promise<void> }>;

/** What each contract section works with: the engine, seeded with `testSeed()`, through the port only. */
export interface ContractContext {
  readonly engine: ContractEngine;
  /** Spendable points, read through the port (eligibility). */
  balance(customer: CustomerIdentifier): Promise<number>;
}

/** Registers beforeEach / afterEach that open and seed a fresh engine; returns the live context. */
export function useContractEngine(open: OpenContractEngine): ContractContext {
  let current: Awaited<ReturnType<OpenContractEngine>> | undefined;
  beforeEach(async () => {
    current = await open();
    await current.engine.applySeed(testSeed());
  });
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  const engine = () => {
    if (!current) throw new Error('the contract engine is not open');
    return current.engine;
  };
  return {
    get engine() {
      return engine();
    },
    async balance(customer) {
      return (await engine().eligibility({ ...SCOPE, customer })).walletBalance;
    },
  };
}

/**
 * Awaits a call expected to fail with an EngineError of this code and HTTP status. `coded`
 * accepts any GatewayError: the embedded catalog sync refuses duplicate ids with a plain
 * GatewayError carrying `fields`.
 */
export async function expectEngineError(
  call: Promise<unknown>,
  code: string,
  status: number,
  kind: 'engine' | 'coded' = 'engine',
): Promise<EngineError> {
  const error = await call.then(
    () => {
      throw new Error(`expected EngineError ${code}, but the call succeeded`);
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(kind === 'engine' ? EngineError : GatewayError);
  expect(error).toMatchObject({ code, statusCode: status });
  return error as EngineError;
}
