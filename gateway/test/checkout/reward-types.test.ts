import { EligibilityResult, RedeemResult } from '@loyalty-gateway/core';
import { testDialects } from '@loyalty-gateway/storage/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayFixture } from '../../src/testing/gateway-fixture.js';
import { sale } from '../../src/testing/test-seed.js';
import {
  CODES,
  MEMBERS,
  PATHS,
  REWARDS,
  byMembership,
  expectError,
  expectOk,
  freshId,
  openCheckoutGateway,
} from '../../src/testing/checkout-kit.js';

/** Redeeming every reward type through the gateway's HTTP surface, and refunds giving rewards back. */
describe.each(testDialects())('stamp cards, issued codes and tiers through the checkout endpoints ($name)', ({ name }) => {
  let gw: GatewayFixture;
  beforeAll(async () => {
    gw = await openCheckoutGateway(name);
  });
  afterAll(() => gw.close());

  const eligibility = async (membershipId: string, orderValue?: number) =>
    EligibilityResult.parse(
      expectOk(
        await gw.post(PATHS.eligibility, { customer: byMembership(membershipId), ...(orderValue === undefined ? {} : { orderValue }) }),
      ),
    );
  const rewardOf = (result: EligibilityResult, id: string) => result.eligibleRewards.find((r) => r.rewardId === id)!;
  const redeem = (membershipId: string, rewardId: string, extra: Record<string, unknown> = {}) =>
    gw.post(PATHS.redeem, { customer: byMembership(membershipId), externalTransactionId: freshId('O'), rewardId, ...extra });
  const redeemed = async (membershipId: string, rewardId: string, extra: Record<string, unknown> = {}) =>
    RedeemResult.parse(expectOk(await redeem(membershipId, rewardId, extra)));
  const refund = async (externalTransactionId: string) =>
    expectOk(await gw.post(PATHS.refund, { externalTransactionId, refundTransactionId: freshId('RF') }));

  it('a completed stamp card: earned by sales, redeemed once (consumed), given back by a refund of the order it was redeemed against', async () => {
    const member = 'MBR-0001';
    const stamps = [];
    for (let i = 0; i < 3; i += 1) stamps.push((await gw.send(sale({ customer: byMembership(member) }))).json().stampsUpdated[0]);
    expect(stamps.at(-1)).toMatchObject({ rewardId: REWARDS.stamp, current: 1, required: 5, completed: true }); // 3 sales × 2 lattes
    expect(rewardOf(await eligibility(member), REWARDS.stamp)).toMatchObject({
      type: 'STAMP',
      pointsCost: null,
      eligible: true,
      reason: null,
    });
    const before = await gw.balance(member);
    const order = freshId('O');
    expect(await redeemed(member, REWARDS.stamp, { externalTransactionId: order })).toMatchObject({
      status: 'REDEEMED',
      rewardId: REWARDS.stamp,
      pointsDeducted: 0,
      walletBalance: before,
    });
    const again = expectError(await redeem(member, REWARDS.stamp), 400, 'not_eligible');
    expect(again.message).toBe('Stamp card 1 of 5.');
    expect(await refund(order)).toEqual({ status: 'REVERSED', pointsReversed: 0, pointsReCredited: 0 });
    expect(rewardOf(await eligibility(member), REWARDS.stamp).eligible).toBe(true);
    expect((await redeemed(member, REWARDS.stamp)).status).toBe('REDEEMED');
  });

  it('issued DISCOUNT and FREE_ITEM codes: minimum spend, each code consumed once, then "code already used"; a refund gives them back', async () => {
    const member = MEMBERS.perks.id;
    const offered = await eligibility(member, 40);
    expect(rewardOf(offered, REWARDS.discount)).toEqual({
      rewardId: REWARDS.discount,
      title: '$10 off over $30',
      type: 'DISCOUNT',
      pointsCost: null,
      discountValue: 10,
      eligible: true,
      reason: null,
    });
    expect(rewardOf(offered, REWARDS.freeItem)).toMatchObject({ type: 'FREE_ITEM', pointsCost: null, eligible: true });
    const short = expectError(await redeem(member, REWARDS.discount, { orderValue: 20 }), 400, 'minimum_spend_not_met');
    expect(short.message).toBe('Spend $10.00 more to use this reward (minimum $30.00).');
    const unknownSpend = expectError(await redeem(member, REWARDS.discount), 400, 'minimum_spend_not_met');
    expect(unknownSpend.message).toBe('Order value needed to check the minimum spend of $30.00.');
    const order = freshId('O');
    expect(await redeemed(member, REWARDS.discount, { externalTransactionId: order, orderValue: 40 })).toMatchObject({
      status: 'REDEEMED',
      pointsDeducted: 0,
    });
    expect(await redeemed(member, REWARDS.freeItem, { externalTransactionId: order })).toMatchObject({
      status: 'REDEEMED',
      pointsDeducted: 0,
    });
    expect((await redeemed(member, REWARDS.discount, { orderValue: 40 })).status).toBe('REDEEMED'); // the second issued code
    const used = await eligibility(member, 40);
    expect(rewardOf(used, REWARDS.discount)).toMatchObject({
      eligible: false,
      reason: expect.stringMatching(/^Code LOYAL-C-DISC[12] already used\.$/),
    });
    expect(rewardOf(used, REWARDS.freeItem)).toMatchObject({ eligible: false, reason: `Code ${CODES.freeItem} already used.` });
    const refused = expectError(await redeem(member, REWARDS.freeItem), 400, 'not_eligible');
    expect(refused.message).toBe(`Code ${CODES.freeItem} already used.`);
    expect(await refund(order)).toEqual({ status: 'REVERSED', pointsReversed: 0, pointsReCredited: 0 });
    const restored = await eligibility(member, 40);
    expect([rewardOf(restored, REWARDS.discount).eligible, rewardOf(restored, REWARDS.freeItem).eligible]).toEqual([true, true]);
  });

  it('a code the sale itself reports is marked used; the refund of that sale makes it available again', async () => {
    const member = MEMBERS.perks.id;
    const id = freshId('S');
    const base = sale({ id, total: 20, customer: byMembership(member) });
    const withCode = {
      ...base,
      transaction: { ...base.transaction, discountCodes: [{ code: CODES.freeItem.toLowerCase(), amount: 3.5 }] },
    };
    expect((await gw.send(withCode)).json()).toMatchObject({ status: 'processed', pointsEarned: 20 });
    expect(rewardOf(await eligibility(member), REWARDS.freeItem)).toMatchObject({
      eligible: false,
      reason: `Code ${CODES.freeItem} already used.`,
    });
    expect(await refund(id)).toEqual({ status: 'REVERSED', pointsReversed: 20, pointsReCredited: 0 });
    expect(rewardOf(await eligibility(member), REWARDS.freeItem).eligible).toBe(true);
  });

  it('TIER: eligible from lifetime points, redeemed without deducting or consuming anything', async () => {
    const member = MEMBERS.perks.id;
    expect(rewardOf(await eligibility(member), REWARDS.tier)).toMatchObject({
      type: 'TIER',
      pointsCost: null,
      discountValue: 2,
      eligible: true,
      reason: null,
    });
    expect(rewardOf(await eligibility(MEMBERS.poor.id), REWARDS.tier)).toMatchObject({
      eligible: false,
      reason: `Tier reached at 3000 lifetime points; customer has ${MEMBERS.poor.points} (${3000 - MEMBERS.poor.points} short).`,
    });
    const before = await gw.balance(member);
    expect(await redeemed(member, REWARDS.tier)).toMatchObject({
      status: 'REDEEMED',
      rewardId: REWARDS.tier,
      pointsDeducted: 0,
      walletBalance: before,
    });
    expect((await redeemed(member, REWARDS.tier)).status).toBe('REDEEMED');
    expect(await gw.balance(member)).toBe(before);
    expectError(await redeem(MEMBERS.poor.id, REWARDS.tier), 400, 'not_eligible');
  });

  it('NOTHING_TO_REVERSE for a sale that reached the service but earned nothing (a walk-in, a non-member)', async () => {
    for (const customer of [null, { type: 'phone', value: '+15559990000' }]) {
      const id = freshId('S');
      expect((await gw.send(sale({ id, customer }))).json()).toMatchObject({ status: 'processed', pointsEarned: 0 });
      expect(await refund(id)).toEqual({ status: 'NOTHING_TO_REVERSE', pointsReversed: 0, pointsReCredited: 0 });
    }
  });
});
