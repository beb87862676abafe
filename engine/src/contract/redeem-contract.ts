import type { RedeemCommand } from '@loyalty-gateway/core';
import { describe, expect, it } from 'vitest';
import { ANN, BOB, IDS, SCOPE, line, sale } from '../testing/fixture.js';
import { expectEngineError, type ContractContext } from './contract-harness.js';

export function redeemContract(t: ContractContext): void {
  const redeem = (extra: Partial<RedeemCommand>) =>
    t.engine.redeem({ ...SCOPE, customer: ANN, externalTransactionId: 'order-1', ...extra });

  describe('redeem', () => {
    it('REDEEMED: a POINTS reward deducts its cost and reports the balance after', async () => {
      const result = await redeem({ rewardId: IDS.points });
      expect(result).toMatchObject({
        status: 'REDEEMED',
        membershipId: 'MBR-0001',
        rewardId: IDS.points,
        pointsDeducted: 500,
        walletBalance: 700,
      });
      expect(result.redemptionId).toMatch(/^[0-9a-f-]{36}$/);
      expect(await t.balance(ANN)).toBe(700);
    });

    it('pointsToRedeem deducts that many points', async () => {
      expect(await redeem({ pointsToRedeem: 250 })).toMatchObject({
        status: 'REDEEMED',
        rewardId: null,
        pointsDeducted: 250,
        walletBalance: 950,
      });
    });

    it('ALREADY_PROCESSED: an identical retry replays the original figures and deducts nothing', async () => {
      const first = await redeem({ pointsToRedeem: 250 });
      await redeem({ externalTransactionId: 'order-2', pointsToRedeem: 100 });
      expect(await redeem({ pointsToRedeem: 250 })).toEqual({ ...first, status: 'ALREADY_PROCESSED' });
      expect(await t.balance(ANN)).toBe(850);
    });

    it('409 already_redeemed: the same order and reward with a different request; the message says what stands', async () => {
      await redeem({ pointsToRedeem: 250 });
      const points = await expectEngineError(redeem({ pointsToRedeem: 300 }), 'already_redeemed', 409);
      expect(points.message).toBe(
        'Already redeemed against this order with a different request: 250 points ($2.50) were deducted then. Apply only that; nothing more was deducted.',
      );
      await redeem({ rewardId: IDS.points });
      const reward = await expectEngineError(redeem({ customer: BOB, rewardId: IDS.points }), 'already_redeemed', 409);
      expect(reward.message).toBe(
        'Already redeemed against this order for another customer: "$5 off" was redeemed then (500 points). Apply only that; nothing more was deducted.',
      );
      expect(await t.balance(ANN)).toBe(450);
    });

    it('400 insufficient_points with the numbers for the cashier', async () => {
      const error = await expectEngineError(redeem({ pointsToRedeem: 1500 }), 'insufficient_points', 400);
      expect(error.message).toBe('Needs 1500 points; customer has 1200 (300 short).');
      await expectEngineError(redeem({ customer: BOB, rewardId: IDS.points }), 'insufficient_points', 400);
    });

    it('404 member_not_found for a non-member; 400 for an unknown reward or a bad selector', async () => {
      await expectEngineError(redeem({ customer: { type: 'phone', value: '+15559999999' }, pointsToRedeem: 1 }), 'member_not_found', 404);
      await expectEngineError(redeem({ rewardId: IDS.unknown }), 'reward_not_found', 400);
      await expectEngineError(redeem({}), 'selector_required', 400);
      await expectEngineError(redeem({ rewardId: IDS.points, pointsToRedeem: 5 }), 'selector_required', 400);
    });

    it('checks the minimum spend, then consumes the issued DISCOUNT once', async () => {
      const error = await expectEngineError(redeem({ rewardId: IDS.discount, orderValueMinor: 3750 }), 'minimum_spend_not_met', 400);
      expect(error.message).toBe('Spend $12.50 more to use this reward (minimum $50.00).');
      expect(await redeem({ rewardId: IDS.discount, orderValueMinor: 5000 })).toMatchObject({ status: 'REDEEMED', pointsDeducted: 0 });
      const used = await expectEngineError(
        redeem({ externalTransactionId: 'order-2', rewardId: IDS.discount, orderValueMinor: 9000 }),
        'not_eligible',
        400,
      );
      expect(used.message).toBe('Code LOYAL-7QX2 already used.');
    });

    it('consumes a completed stamp card; without one it is not eligible', async () => {
      const error = await expectEngineError(redeem({ rewardId: IDS.stamp }), 'not_eligible', 400);
      expect(error.message).toBe('Stamp card 0 of 5.');
      await t.engine.earn(sale({ items: [line('Coffee', 5)] }));
      expect(await redeem({ rewardId: IDS.stamp })).toMatchObject({ status: 'REDEEMED', pointsDeducted: 0 });
    });
  });
}
