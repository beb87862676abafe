import { describe, expect, it } from 'vitest';
import { ANN, IDS, SCOPE, sale } from '../testing/fixture.js';
import type { ContractContext } from './contract-harness.js';

/** Giving reversals back (withdrawRefunds): what the vendor no longer lists is returned to the wallet, once. */
export function withdrawContract(t: ContractContext): void {
  const T1 = '2026-01-15T11:00:00Z';
  const T2 = '2026-01-15T12:00:00Z';
  const T3 = '2026-01-15T13:00:00Z';
  const refund = (transactionId: string, refundId: string, amountMinor?: number, occurredAt = T1) =>
    t.engine.reverse({ ...SCOPE, transactionId, refundId, occurredAt, ...(amountMinor === undefined ? {} : { amountMinor }) });
  const withdraw = (transactionId: string, keep: string[], asOf = T2) => t.engine.withdrawRefunds({ ...SCOPE, transactionId, keep, asOf });

  describe('withdrawRefunds', () => {
    it('gives a deleted full refund back once; the same state again moves nothing; a late copy of the refund reverses nothing', async () => {
      const command = sale({ totalMinor: 4999 });
      await t.engine.earn(command);
      await refund(command.transaction.id, 'r-1');
      expect(await t.balance(ANN)).toBe(1200);
      expect(await withdraw(command.transaction.id, [])).toEqual({
        status: 'WITHDRAWN',
        withdrawn: ['r-1'],
        pointsRestored: 49,
        pointsReDebited: 0,
        membershipId: 'MBR-0001',
      });
      expect(await t.balance(ANN)).toBe(1249);
      expect(await withdraw(command.transaction.id, [], T3)).toEqual({
        status: 'NOTHING_TO_WITHDRAW',
        withdrawn: [],
        pointsRestored: 0,
        pointsReDebited: 0,
        membershipId: 'MBR-0001',
      });
      expect(await refund(command.transaction.id, 'r-1')).toEqual({
        status: 'ALREADY_PROCESSED',
        pointsReversed: 0,
        pointsReCredited: 0,
        membershipId: 'MBR-0001',
      });
      expect(await t.balance(ANN)).toBe(1249);
    });

    it('keeps what the vendor still lists and recomputes the rest on the cumulative amount', async () => {
      const command = sale({ totalMinor: 1000 });
      await t.engine.earn(command);
      await refund(command.transaction.id, 'r-a', 300);
      await refund(command.transaction.id, 'r-b', 250);
      expect(await t.balance(ANN)).toBe(1200 + 10 - 3 - 2);
      // r-a deleted: 250 of 1000 stays refunded, floor(10 × 0.25) = 2 reversed in all, 3 come back.
      expect(await withdraw(command.transaction.id, ['r-b'])).toMatchObject({ status: 'WITHDRAWN', withdrawn: ['r-a'], pointsRestored: 3 });
      expect(await t.balance(ANN)).toBe(1200 + 10 - 2);
      // A later refund still reverses on the cumulative amount: 250 + 750 = the total, all 10.
      expect(await refund(command.transaction.id, 'r-c', 750)).toMatchObject({ status: 'REVERSED', pointsReversed: 8 });
      expect(await t.balance(ANN)).toBe(1200);
    });

    it('never withdraws a reversal newer than the state it is given (a delivery that arrived late)', async () => {
      const command = sale({ totalMinor: 2000 });
      await t.engine.earn(command);
      await refund(command.transaction.id, 'r-new', 1000, T3);
      expect(await withdraw(command.transaction.id, [], T2)).toMatchObject({ status: 'NOTHING_TO_WITHDRAW', withdrawn: [] });
      expect(await t.balance(ANN)).toBe(1200 + 20 - 10);
      // The state at T3 or later that no longer lists it does.
      expect(await withdraw(command.transaction.id, [], T3)).toMatchObject({ status: 'WITHDRAWN', pointsRestored: 10 });
      expect(await t.balance(ANN)).toBe(1220);
    });

    it('a refund withdrawn before its sale arrives is not applied when the sale comes', async () => {
      const command = sale({ totalMinor: 3000 });
      await refund(command.transaction.id, 'r-early', 1500);
      expect(await withdraw(command.transaction.id, [])).toMatchObject({ status: 'WITHDRAWN', withdrawn: ['r-early'], pointsRestored: 0 });
      expect(await t.engine.earn(command)).toMatchObject({ status: 'processed', pointsEarned: 30, warning: null });
      expect(await t.balance(ANN)).toBe(1230);
    });

    it('a sale no longer fully refunded commits its re-credited redemption again; completing it again re-credits it again', async () => {
      const command = sale({ totalMinor: 2000 });
      await t.engine.redeem({ ...SCOPE, customer: ANN, externalTransactionId: command.transaction.id, rewardId: IDS.points });
      await t.engine.earn(command);
      expect(await refund(command.transaction.id, 'r-1')).toMatchObject({ pointsReversed: 20, pointsReCredited: 500 });
      expect(await t.balance(ANN)).toBe(1200);
      expect(await withdraw(command.transaction.id, [])).toMatchObject({ status: 'WITHDRAWN', pointsRestored: 20, pointsReDebited: 500 });
      expect(await t.balance(ANN)).toBe(1200 - 500 + 20);
      // Refunded in full again (another refund id): the redemption is re-credited a second time.
      expect(await refund(command.transaction.id, 'r-2', undefined, T3)).toMatchObject({
        status: 'REVERSED',
        pointsReversed: 20,
        pointsReCredited: 500,
      });
      expect(await t.balance(ANN)).toBe(1200);
    });

    it('an order with no reversal, or an unknown order, has nothing to withdraw', async () => {
      const command = sale({ totalMinor: 1000 });
      await t.engine.earn(command);
      expect(await withdraw(command.transaction.id, ['never-recorded'])).toEqual({
        status: 'NOTHING_TO_WITHDRAW',
        withdrawn: [],
        pointsRestored: 0,
        pointsReDebited: 0,
        membershipId: 'MBR-0001',
      });
      expect(await withdraw('never-seen', [])).toMatchObject({ status: 'NOTHING_TO_WITHDRAW', membershipId: '' });
      expect(await t.balance(ANN)).toBe(1210);
    });

    it('reversedOrders lists the orders of a store with a reversal standing recorded since a time, newest first', async () => {
      const since = new Date(Date.now() - 60_000).toISOString();
      const [a, b, c] = [sale({ totalMinor: 1000 }), sale({ totalMinor: 1000 }), sale({ totalMinor: 1000 })];
      for (const command of [a, b, c]) await t.engine.earn(command);
      await refund(a.transaction.id, 'r-a', 100);
      await refund(b.transaction.id, 'r-b', 100);
      await refund(c.transaction.id, 'r-c', 100);
      await withdraw(c.transaction.id, []);
      const listed = await t.engine.reversedOrders({ source: SCOPE.source, since, limit: 10 });
      expect(listed).toHaveLength(2);
      expect(new Set(listed)).toEqual(new Set([a.transaction.id, b.transaction.id]));
      expect(await t.engine.reversedOrders({ source: SCOPE.source, since, limit: 1 })).toHaveLength(1);
      expect(await t.engine.reversedOrders({ source: { ...SCOPE.source, storeId: 'store-other' }, since, limit: 10 })).toEqual([]);
      expect(
        await t.engine.reversedOrders({ source: SCOPE.source, since: new Date(Date.now() + 60_000).toISOString(), limit: 10 }),
      ).toEqual([]);
    });

    it('concurrent copies of one state withdraw once', async () => {
      const command = sale({ totalMinor: 5000 });
      await t.engine.earn(command);
      await refund(command.transaction.id, 'r-1', 2500);
      const answers = await Promise.all(Array.from({ length: 6 }, () => withdraw(command.transaction.id, [])));
      expect(answers.filter((a) => a.status === 'WITHDRAWN')).toHaveLength(1);
      expect(answers.reduce((sum, a) => sum + a.pointsRestored, 0)).toBe(25);
      expect(await t.balance(ANN)).toBe(1250);
    });
  });
}
