import { saleFingerprint } from '@loyalty-gateway/core';
import { describe, expect, it } from 'vitest';
import { ANN, IDS, SCOPE, line, sale, uniqueId } from '../testing/fixture.js';
import type { ContractContext } from './contract-harness.js';

/**
 * A refund that reaches the engine before its sale (events arrive late; a vendor retries a sale
 * for up to an hour after a 500 while its refund got through): the refund answers
 * NOTHING_TO_REVERSE, and the late sale honours it in its own transaction, as if it had come after.
 */
export function refundBeforeSaleContract(t: ContractContext): void {
  const refund = (transactionId: string, refundId: string, amountMinor?: number, scope = SCOPE) =>
    t.engine.reverse({ ...scope, transactionId, refundId, ...(amountMinor === undefined ? {} : { amountMinor }) });

  describe('refund before its sale', () => {
    it('a sale arriving after its full refund earns its points and gives them back at once, keeping none', async () => {
      const command = sale({ totalMinor: 6000 });
      expect(await refund(command.transaction.id, 'r-1')).toEqual({
        status: 'NOTHING_TO_REVERSE',
        pointsReversed: 0,
        pointsReCredited: 0,
        membershipId: '',
      });
      expect(await t.engine.earn(command)).toEqual({
        status: 'processed',
        membershipId: 'MBR-0001',
        pointsEarned: 0,
        stampsUpdated: [],
        warning: 'This order was refunded before the sale arrived (refund r-1): the 60 points it earned were reversed at once.',
        fingerprint: saleFingerprint(command.transaction),
      });
      expect(await t.balance(ANN)).toBe(1200);
      // The refund's retry is the refund already recorded (its first answer); a new one finds nothing left.
      expect(await refund(command.transaction.id, 'r-1')).toMatchObject({ status: 'ALREADY_PROCESSED', pointsReversed: 0 });
      expect(await refund(command.transaction.id, 'r-2')).toMatchObject({ status: 'NOTHING_TO_REVERSE', pointsReversed: 0 });
      expect((await t.engine.earn({ ...command, eventId: 'retry' })).status).toBe('duplicate');
      expect(await t.balance(ANN)).toBe(1200);
    });

    it('partial refunds first: proportional on their cumulative amount; a later refund reverses exactly the remainder', async () => {
      const command = sale({ totalMinor: 6000 }); // earns 60
      await refund(command.transaction.id, 'r-a', 2000);
      await refund(command.transaction.id, 'r-b', 1000);
      const earned = await t.engine.earn(command);
      expect(earned).toMatchObject({ status: 'processed', pointsEarned: 30 });
      expect(earned.warning).toBe(
        'Part of this order was refunded before the sale arrived (refunds r-a, r-b): 30 of the 60 points it earned were reversed at once.',
      );
      expect(await t.balance(ANN)).toBe(1230);
      expect(await refund(command.transaction.id, 'r-c')).toMatchObject({ status: 'REVERSED', pointsReversed: 30 });
      expect(await t.balance(ANN)).toBe(1200);
    });

    it('refunds above the total before the sale: never more than the sale earned', async () => {
      const command = sale({ totalMinor: 1000 });
      await refund(command.transaction.id, 'r-a', 800);
      await refund(command.transaction.id, 'r-b', 800);
      expect(await t.engine.earn(command)).toMatchObject({ pointsEarned: 0 });
      expect(await t.balance(ANN)).toBe(1200);
      expect(await refund(command.transaction.id, 'r-c', 100)).toMatchObject({ status: 'NOTHING_TO_REVERSE', pointsReversed: 0 });
    });

    it('stamps are kept, as on any refund; the warning says what was reversed', async () => {
      const command = sale({ totalMinor: 900, items: [line('Coffee', 2)] });
      await refund(command.transaction.id, 'r-1');
      const earned = await t.engine.earn(command);
      expect(earned).toMatchObject({
        pointsEarned: 0,
        stampsUpdated: [{ rewardId: IDS.stamp, current: 2, required: 5, completed: false }],
      });
      expect(earned.warning).toContain('the 9 points it earned were reversed at once');
    });

    it('a redemption the early refund re-credited is not re-credited again by the sale', async () => {
      const command = sale({ totalMinor: 2000 });
      await t.engine.redeem({ ...SCOPE, customer: ANN, externalTransactionId: command.transaction.id, pointsToRedeem: 250 });
      expect(await refund(command.transaction.id, 'r-1')).toMatchObject({ status: 'REVERSED', pointsReversed: 0, pointsReCredited: 250 });
      const earned = await t.engine.earn(command);
      expect(earned).toMatchObject({
        pointsEarned: 0,
        warning: 'This order was refunded before the sale arrived (refund r-1): the 20 points it earned were reversed at once.',
      });
      expect(await t.balance(ANN)).toBe(1200);
    });

    it('reward codes the sale reports are given back when the earlier refunds refund it in full', async () => {
      const command = sale({ totalMinor: 6000, discountCodes: [{ code: 'LOYAL-7QX2' }] });
      await refund(command.transaction.id, 'r-1');
      await t.engine.earn(command);
      const rewards = (await t.engine.eligibility({ ...SCOPE, customer: ANN, orderValueMinor: 6000 })).eligibleRewards;
      expect(rewards.find((r) => r.rewardId === IDS.discount)).toMatchObject({ eligible: true });
    });

    it('only refunds of the same vendor and store count', async () => {
      const command = sale({ totalMinor: 6000 });
      await refund(command.transaction.id, 'r-1', undefined, { ...SCOPE, source: { vendor: 'acme-pos', storeId: 'store-002' } });
      expect(await t.engine.earn(command)).toMatchObject({ pointsEarned: 60, warning: null });
      expect(await t.balance(ANN)).toBe(1260);
    });

    it('a refund and its sale at the same moment: whichever commits first, the points are reversed exactly once', async () => {
      const sales = Array.from({ length: 8 }, () => sale({ totalMinor: 5000 }));
      await Promise.all(
        sales.flatMap((s, i) => {
          const r = refund(s.transaction.id, uniqueId('r'));
          const e = t.engine.earn(s);
          return i % 2 === 0 ? [r, e] : [e, r];
        }),
      );
      expect(await t.balance(ANN)).toBe(1200);
      for (const s of sales) expect(await refund(s.transaction.id, uniqueId('r'))).toMatchObject({ status: 'NOTHING_TO_REVERSE' });
    });
  });
}
