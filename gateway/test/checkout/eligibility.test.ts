import { EligibilityResult } from '@loyalty-gateway/core';
import { testDialects } from '@loyalty-gateway/storage/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayFixture } from '../../src/testing/gateway-fixture.js';
import { sale } from '../../src/testing/test-seed.js';
import {
  MEMBERS,
  PATHS,
  REWARDS,
  byMembership,
  expectError,
  expectOk,
  fieldPaths,
  freshId,
  openCheckoutGateway,
} from '../../src/testing/checkout-kit.js';

describe.each(testDialects())('POST /v1/redemption/eligibility ($name)', ({ name }) => {
  let gw: GatewayFixture;
  beforeAll(async () => {
    gw = await openCheckoutGateway(name);
  });
  afterAll(() => gw.close());

  const check = async (body: unknown) => EligibilityResult.parse(expectOk(await gw.post(PATHS.eligibility, body)));
  const rewardOf = (result: EligibilityResult, id: string) => result.eligibleRewards.find((r) => r.rewardId === id)!;

  it('a member: balance, rate, every reward with type, pointsCost (POINTS only), discountValue and a reason when not eligible', async () => {
    const result = await check({ customer: byMembership(MEMBERS.rich.id), orderValue: 25 });
    expect(result).toMatchObject({ membershipId: MEMBERS.rich.id, walletBalance: MEMBERS.rich.points, redemptionRate: 100, warning: null });
    expect(result.eligibleRewards.map((r) => r.rewardId).sort()).toEqual(Object.values(REWARDS).sort());
    expect(rewardOf(result, REWARDS.fiveOff)).toEqual({
      rewardId: REWARDS.fiveOff,
      title: '$5 off',
      type: 'POINTS',
      pointsCost: 500,
      discountValue: 5,
      eligible: true,
      reason: null,
    });
    expect(rewardOf(result, REWARDS.minSpend)).toMatchObject({
      type: 'POINTS',
      pointsCost: 200,
      discountValue: 2,
      eligible: true,
      reason: null,
    });
    expect(rewardOf(result, REWARDS.stamp)).toMatchObject({ type: 'STAMP', pointsCost: null, eligible: false });
  });

  it('stamp card not complete: the reason says how far the card is', async () => {
    await gw.send(sale({ customer: byMembership(MEMBERS.poor.id) })); // one latte line: stamps on the card
    const result = await check({ customer: byMembership(MEMBERS.poor.id) });
    const stamp = rewardOf(result, REWARDS.stamp);
    expect(stamp.eligible).toBe(false);
    expect(stamp.reason).toMatch(/^Stamp card \d of 5\.$/);
  });

  it('points short: the reason names the cost, the balance and the shortfall', async () => {
    const result = await check({ customer: byMembership(MEMBERS.poor.id), orderValue: 50 });
    const balance = result.walletBalance;
    expect(balance).toBeLessThan(500);
    expect(rewardOf(result, REWARDS.fiveOff)).toMatchObject({
      eligible: false,
      reason: `Needs 500 points; customer has ${balance} (${500 - balance} short).`,
    });
  });

  it('minimum spend not met for orderValue: the reason says how much more to spend', async () => {
    const result = await check({ customer: byMembership(MEMBERS.rich.id), orderValue: 12.5 });
    expect(rewardOf(result, REWARDS.minSpend)).toMatchObject({
      eligible: false,
      reason: 'Spend $7.50 more to use this reward (minimum $20.00).',
    });
    const exact = await check({ customer: byMembership(MEMBERS.rich.id), orderValue: 20 });
    expect(rewardOf(exact, REWARDS.minSpend)).toMatchObject({ eligible: true, reason: null });
    const noValue = await check({ customer: byMembership(MEMBERS.rich.id) });
    expect(rewardOf(noValue, REWARDS.minSpend).eligible).toBe(false);
    expect(rewardOf(noValue, REWARDS.minSpend).reason).toMatch(/minimum spend of \$20\.00/);
  });

  it('after a refund took back points already spent, walletBalance is 0 and the reason explains the debt (never negative, never "customer has -500")', async () => {
    const big = freshId('S');
    expect((await gw.send(sale({ id: big, total: 500, customer: byMembership('MBR-0002') }))).json()).toMatchObject({ pointsEarned: 500 });
    expectOk(await gw.post(PATHS.redeem, { customer: byMembership('MBR-0002'), externalTransactionId: freshId('R'), pointsToRedeem: 500 }));
    expect(expectOk(await gw.post(PATHS.refund, { externalTransactionId: big, refundTransactionId: freshId('RF') }))).toMatchObject({
      pointsReversed: 500,
    });
    const result = await check({ customer: byMembership('MBR-0002') });
    expect(result).toMatchObject({ membershipId: 'MBR-0002', walletBalance: 0 });
    expect(result.warning).toMatch(/^This customer owes 500 points: a refund took back points already spent\./);
    expect(rewardOf(result, REWARDS.fiveOff).reason).toBe(
      'Needs 500 points; customer has none to spend (owes 500 points after a refund) (1000 short).',
    );
    const error = expectError(
      await gw.post(PATHS.redeem, { customer: byMembership('MBR-0002'), externalTransactionId: freshId('R'), pointsToRedeem: 1 }),
      400,
      'insufficient_points',
    );
    expect(error.message).toBe('Needs 1 point; customer has none to spend (owes 500 points after a refund) (501 short).');
  });

  it('not a member: 200, empty membershipId, a warning, nothing to redeem', async () => {
    const result = await check({ customer: { type: 'phone', value: '+15559990000' } });
    expect(result).toMatchObject({ membershipId: '', walletBalance: 0, eligibleRewards: [] });
    expect(result.warning).toEqual(expect.any(String));
  });

  it('read-only: calling it changes no balance', async () => {
    const before = await gw.balance(MEMBERS.rich.id);
    for (let i = 0; i < 3; i += 1) await check({ customer: byMembership(MEMBERS.rich.id), orderValue: 30 });
    expect(await gw.balance(MEMBERS.rich.id)).toBe(before);
  });

  it('orderValue must be a positive multiple of 0.01: 422 naming the field', async () => {
    for (const orderValue of [0, -1, 10.005, '12.50', null]) {
      const body = expectError(
        await gw.post(PATHS.eligibility, { customer: byMembership(MEMBERS.rich.id), orderValue }),
        422,
        'validation_failed',
      );
      expect(fieldPaths(body)).toEqual(['orderValue']);
    }
  });

  it('missing customer: 400 missing_field; bad customer type and unknown fields: 422 with each path', async () => {
    expect(fieldPaths(expectError(await gw.post(PATHS.eligibility, { orderValue: 5 }), 400, 'missing_field'))).toEqual(['customer']);
    const bad = expectError(
      await gw.post(PATHS.eligibility, { customer: { type: 'loyaltyCard', value: '1', extra: 1 }, orderValue: 5, coupon: 'X' }),
      422,
      'validation_failed',
    );
    expect(fieldPaths(bad).sort()).toEqual(['coupon', 'customer.extra', 'customer.type']);
  });
});
