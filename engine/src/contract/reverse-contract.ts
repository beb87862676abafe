import { describe, expect, it } from 'vitest';
import { ANN, IDS, SCOPE, sale } from '../testing/fixture.js';
import { expectEngineError, type ContractContext } from './contract-harness.js';

export function reverseContract(t: ContractContext): void {
  const refund = (transactionId: string, refundId: string, amountMinor?: number) =>
    t.engine.reverse({ ...SCOPE, transactionId, refundId, ...(amountMinor === undefined ? {} : { amountMinor }) });

  describe('reverse', () => {
    it('reverses a full refund once; the same refund id again is ALREADY_PROCESSED', async () => {
      const command = sale({ totalMinor: 4999 });
      await t.engine.earn(command);
      expect(await refund(command.transaction.id, 'r-1')).toEqual({
        status: 'REVERSED',
        pointsReversed: 49,
        pointsReCredited: 0,
        membershipId: 'MBR-0001',
      });
      expect(await refund(command.transaction.id, 'r-1')).toEqual({
        status: 'ALREADY_PROCESSED',
        pointsReversed: 49,
        pointsReCredited: 0,
        membershipId: 'MBR-0001',
      });
      expect(await t.balance(ANN)).toBe(1200);
    });

    it('a refund id reused for another sale or amount: 400 refund_id_reused, nothing reversed', async () => {
      const command = sale({ totalMinor: 1000 });
      const other = sale({ totalMinor: 2000 });
      await t.engine.earn(command);
      await t.engine.earn(other);
      await refund(command.transaction.id, 'r-1', 500);
      await expectEngineError(refund(other.transaction.id, 'r-1'), 'refund_id_reused', 400);
      await expectEngineError(refund(command.transaction.id, 'r-1', 400), 'refund_id_reused', 400);
      expect(await refund(command.transaction.id, 'r-1', 500)).toMatchObject({ status: 'ALREADY_PROCESSED', pointsReversed: 5 });
      expect(await t.balance(ANN)).toBe(1200 + 10 + 20 - 5);
    });

    it('an omitted amount counts as the sale total, both ways: a full refund retried with its amount spelled out is the same refund, not refund_id_reused', async () => {
      const omittedFirst = sale({ totalMinor: 6000 });
      const explicitFirst = sale({ totalMinor: 6000 });
      await t.engine.earn(omittedFirst);
      await t.engine.earn(explicitFirst);
      const full = { status: 'REVERSED', pointsReversed: 60, pointsReCredited: 0, membershipId: 'MBR-0001' };
      expect(await refund(omittedFirst.transaction.id, 'r-1')).toEqual(full);
      expect(await refund(omittedFirst.transaction.id, 'r-1', 6000)).toEqual({ ...full, status: 'ALREADY_PROCESSED' });
      expect(await refund(explicitFirst.transaction.id, 'r-2', 6000)).toEqual(full);
      expect(await refund(explicitFirst.transaction.id, 'r-2')).toEqual({ ...full, status: 'ALREADY_PROCESSED' });
      // An amount above the total refunds the total: the same full refund.
      expect(await refund(explicitFirst.transaction.id, 'r-2', 6500)).toMatchObject({ status: 'ALREADY_PROCESSED' });
      // A really different amount is still another refund.
      const other = await expectEngineError(refund(omittedFirst.transaction.id, 'r-1', 5999), 'refund_id_reused', 400);
      expect(other.message).toContain('a refund of this order with another amount');
      await expectEngineError(refund(explicitFirst.transaction.id, 'r-2', 3000), 'refund_id_reused', 400);
      expect(await t.balance(ANN)).toBe(1200);
    });

    it('before its sale arrives an omitted amount cannot be matched with a number; once the sale is known it can', async () => {
      const command = sale({ totalMinor: 6000 });
      await refund(command.transaction.id, 'r-1');
      const early = await expectEngineError(refund(command.transaction.id, 'r-1', 6000), 'refund_id_reused', 400);
      expect(early.message).toBe(
        'Refund id r-1 was already used for a full refund (no amount) of this order, which has not reached the service yet, so a refund of 60.00 cannot be matched with it (retry it as first sent); nothing was reversed now. Give every refund its own id.',
      );
      await t.engine.earn(command);
      expect(await refund(command.transaction.id, 'r-1', 6000)).toMatchObject({ status: 'ALREADY_PROCESSED' });
      expect(await t.balance(ANN)).toBe(1200);
    });

    it('reverses partial refunds on the cumulative amount, never more than was earned', async () => {
      const command = sale({ totalMinor: 1000 });
      await t.engine.earn(command);
      const parts = [
        await refund(command.transaction.id, 'r-a', 333),
        await refund(command.transaction.id, 'r-b', 333),
        await refund(command.transaction.id, 'r-c', 334),
      ];
      expect(parts.map((p) => p.pointsReversed)).toEqual([3, 3, 4]);
      expect(await refund(command.transaction.id, 'r-d', 500)).toMatchObject({ status: 'NOTHING_TO_REVERSE', pointsReversed: 0 });
      expect(await t.balance(ANN)).toBe(1200);
    });

    it('a full refund after a partial one reverses exactly the remainder', async () => {
      const command = sale({ totalMinor: 1000 });
      await t.engine.earn(command);
      expect((await refund(command.transaction.id, 'r-1', 250)).pointsReversed).toBe(2);
      expect((await refund(command.transaction.id, 'r-2')).pointsReversed).toBe(8);
    });

    it('NOTHING_TO_REVERSE for a sale never seen or a walk-in, still deduplicated', async () => {
      expect(await refund('never-seen', 'r-1')).toEqual({
        status: 'NOTHING_TO_REVERSE',
        pointsReversed: 0,
        pointsReCredited: 0,
        membershipId: '',
      });
      expect((await refund('never-seen', 'r-1')).status).toBe('ALREADY_PROCESSED');
      const walkIn = sale({ customer: undefined });
      await t.engine.earn(walkIn);
      expect((await refund(walkIn.transaction.id, 'r-2')).status).toBe('NOTHING_TO_REVERSE');
    });

    it('re-credits points redeemed against the sale once, on the refund that completes the reversal', async () => {
      const command = sale({ totalMinor: 2000 });
      await t.engine.redeem({ ...SCOPE, customer: ANN, externalTransactionId: command.transaction.id, rewardId: IDS.points });
      await t.engine.earn(command);
      expect(await t.balance(ANN)).toBe(1200 - 500 + 20);
      expect(await refund(command.transaction.id, 'r-1', 1000)).toMatchObject({
        status: 'REVERSED',
        pointsReversed: 10,
        pointsReCredited: 0,
      });
      expect(await refund(command.transaction.id, 'r-2', 1000)).toMatchObject({
        status: 'REVERSED',
        pointsReversed: 10,
        pointsReCredited: 500,
      });
      expect((await refund(command.transaction.id, 'r-3')).pointsReCredited).toBe(0);
      expect(await t.balance(ANN)).toBe(1200);
    });

    it('re-credits a redemption against an order that never reached the engine', async () => {
      await t.engine.redeem({ ...SCOPE, customer: ANN, externalTransactionId: 'abandoned', pointsToRedeem: 250 });
      expect(await refund('abandoned', 'r-1')).toEqual({
        status: 'REVERSED',
        pointsReversed: 0,
        pointsReCredited: 250,
        membershipId: 'MBR-0001',
      });
      expect(await t.balance(ANN)).toBe(1200);
    });
  });
}
