import { EngineUnavailableError } from '@loyalty-gateway/core';
import { describe, expect, it } from 'vitest';
import { ANN, IDS, SCOPE, line, sale } from '../testing/fixture.js';
import type { ContractContext } from './contract-harness.js';

/**
 * Every implementation forwards `EngineCallOptions` to the engine: a call whose deadline has
 * passed is unavailable (EngineUnavailableError, never a business answer) and commits nothing.
 */
export function deadlineContract(t: ContractContext): void {
  describe('call deadline', () => {
    it('a deadline already passed: EngineUnavailableError from every call, and nothing is written', async () => {
      const past = { deadline: Date.now() - 1 };
      const command = sale({ totalMinor: 5000, items: [line('Coffee', 5)] });
      const calls = [
        t.engine.earn(command, past),
        t.engine.redeem({ ...SCOPE, customer: ANN, externalTransactionId: 'late-order', rewardId: IDS.points }, past),
        t.engine.reverse({ ...SCOPE, transactionId: 'late-order', refundId: 'late-refund' }, past),
        t.engine.catalogSync({ ...SCOPE, items: [{ externalId: 'late', name: 'Late', isActive: true }] }, past),
        t.engine.eligibility({ ...SCOPE, customer: ANN }, past),
      ];
      for (const outcome of await Promise.allSettled(calls)) {
        expect(outcome.status).toBe('rejected');
        expect((outcome as PromiseRejectedResult).reason).toBeInstanceOf(EngineUnavailableError);
      }
      expect(await t.balance(ANN)).toBe(1200);
      expect((await t.engine.earn(command, { deadline: Date.now() + 5_000 })).status).toBe('processed');
      const redeemed = await t.engine.redeem(
        { ...SCOPE, customer: ANN, externalTransactionId: 'late-order', rewardId: IDS.points },
        { deadline: Date.now() + 5_000 },
      );
      expect(redeemed.status).toBe('REDEEMED');
      expect((await t.engine.catalogSync({ ...SCOPE, items: [{ externalId: 'late', name: 'Late', isActive: true }] })).itemsCreated).toBe(
        1,
      );
    });
  });
}
