import { describe, expect, it } from 'vitest';
import { ANN, SCOPE, sale } from '../testing/fixture.js';
import type { ContractContext } from './contract-harness.js';

/** A paid order that grew (raiseSale): the added money earns once; the total only rises. */
export function raiseContract(t: ContractContext): void {
  const grown = (command: ReturnType<typeof sale>, totalMinor: number) => ({
    ...command,
    eventId: `${command.eventId}-grown-${totalMinor}`,
    transaction: { ...command.transaction, totalMinor },
  });

  describe('raiseSale', () => {
    it('earns on the added money once; the same state again, or a smaller one, changes nothing', async () => {
      const command = sale({ totalMinor: 1000 });
      await t.engine.earn(command);
      expect(await t.engine.raiseSale(grown(command, 1500))).toEqual({
        status: 'RAISED',
        pointsEarned: 5,
        totalMinor: 1500,
        membershipId: 'MBR-0001',
      });
      expect(await t.engine.raiseSale(grown(command, 1500))).toEqual({
        status: 'UNCHANGED',
        pointsEarned: 0,
        totalMinor: 1500,
        membershipId: 'MBR-0001',
      });
      expect(await t.engine.raiseSale(grown(command, 1200))).toMatchObject({ status: 'UNCHANGED', totalMinor: 1500 });
      expect(await t.balance(ANN)).toBe(1215);
      // The grown order delivered again as a sale is a plain duplicate, not a conflict.
      const again = await t.engine.earn(grown(command, 1500));
      expect(again).toMatchObject({ status: 'duplicate', pointsEarned: 0 });
      expect(again.conflict).toBeUndefined();
    });

    it('recomputes what refunds reversed on the grown total, so a later refund reverses its own share', async () => {
      const command = sale({ totalMinor: 1000 });
      await t.engine.earn(command);
      await t.engine.reverse({ ...SCOPE, transactionId: command.transaction.id, refundId: 'r-1', amountMinor: 200 });
      expect(await t.balance(ANN)).toBe(1200 + 10 - 2);
      // 15 earned on 1500; 200 of 1500 refunded reverses floor(15 × 200 / 1500) = 2, as before: +5.
      expect(await t.engine.raiseSale(grown(command, 1500))).toMatchObject({ status: 'RAISED', pointsEarned: 5 });
      expect(await t.engine.reverse({ ...SCOPE, transactionId: command.transaction.id, refundId: 'r-2', amountMinor: 1300 })).toMatchObject(
        { status: 'REVERSED', pointsReversed: 13 },
      );
      expect(await t.balance(ANN)).toBe(1200);
    });

    it('an unknown sale, another currency or a walk-in earns nothing more', async () => {
      expect(await t.engine.raiseSale(grown(sale({ totalMinor: 1000 }), 2000))).toEqual({
        status: 'UNCHANGED',
        pointsEarned: 0,
        totalMinor: 0,
        membershipId: '',
      });
      const command = sale({ totalMinor: 1000 });
      await t.engine.earn(command);
      expect(
        await t.engine.raiseSale({ ...grown(command, 2000), transaction: { ...grown(command, 2000).transaction, currency: 'EUR' } }),
      ).toMatchObject({
        status: 'UNCHANGED',
        totalMinor: 1000,
      });
      const walkIn = sale({ totalMinor: 1000, customer: undefined });
      await t.engine.earn(walkIn);
      expect(await t.engine.raiseSale(grown(walkIn, 3000))).toMatchObject({ status: 'RAISED', pointsEarned: 0, totalMinor: 3000 });
      expect(await t.balance(ANN)).toBe(1210);
    });

    it('concurrent copies of one grown order raise once', async () => {
      const command = sale({ totalMinor: 1000 });
      await t.engine.earn(command);
      const answers = await Promise.all(Array.from({ length: 6 }, () => t.engine.raiseSale(grown(command, 4000))));
      expect(answers.filter((a) => a.status === 'RAISED')).toHaveLength(1);
      expect(await t.balance(ANN)).toBe(1240);
    });
  });
}
