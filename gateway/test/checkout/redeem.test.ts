import { RedeemResult } from '@loyalty-gateway/core';
import { testDialects } from '@loyalty-gateway/storage/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayFixture } from '../../src/testing/gateway-fixture.js';
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

describe.each(testDialects())('POST /v1/redemption/redeem ($name)', ({ name }) => {
  let gw: GatewayFixture;
  beforeAll(async () => {
    gw = await openCheckoutGateway(name);
  });
  afterAll(() => gw.close());

  const redeem = (body: Record<string, unknown>) =>
    gw.post(PATHS.redeem, { customer: byMembership(MEMBERS.rich.id), externalTransactionId: freshId('R'), ...body });
  const redeemed = async (body: Record<string, unknown>) => RedeemResult.parse(expectOk(await redeem(body)));

  it('a POINTS reward: REDEEMED, pointsCost deducted, the balance after it', async () => {
    const before = await gw.balance(MEMBERS.rich.id);
    const result = await redeemed({ rewardId: REWARDS.fiveOff });
    expect(result).toEqual({
      status: 'REDEEMED',
      membershipId: MEMBERS.rich.id,
      redemptionId: expect.any(String),
      rewardId: REWARDS.fiveOff,
      pointsDeducted: 500,
      walletBalance: before - 500,
    });
    expect(await gw.balance(MEMBERS.rich.id)).toBe(before - 500);
  });

  it('pointsToRedeem: REDEEMED, exactly that many points, no reward', async () => {
    const before = await gw.balance(MEMBERS.rich.id);
    const result = await redeemed({ pointsToRedeem: 250 });
    expect(result).toMatchObject({ status: 'REDEEMED', rewardId: null, pointsDeducted: 250, walletBalance: before - 250 });
    expect(await gw.balance(MEMBERS.rich.id)).toBe(before - 250);
  });

  it('an identical retry: 200 ALREADY_PROCESSED with the original figures, nothing deducted twice', async () => {
    const order = freshId('R');
    const first = await redeemed({ externalTransactionId: order, rewardId: REWARDS.fiveOff, orderValue: 30 });
    const after = await gw.balance(MEMBERS.rich.id);
    for (let i = 0; i < 2; i += 1) {
      const again = await redeemed({ externalTransactionId: order, rewardId: REWARDS.fiveOff, orderValue: 30 });
      expect(again).toEqual({ ...first, status: 'ALREADY_PROCESSED' });
    }
    const points = await redeemed({ externalTransactionId: order, pointsToRedeem: 40 });
    expect((await redeemed({ externalTransactionId: order, pointsToRedeem: 40 })).status).toBe('ALREADY_PROCESSED');
    expect(await gw.balance(MEMBERS.rich.id)).toBe(after - points.pointsDeducted);
  });

  it('the same order and reward with a different payload: 409 already_redeemed, nothing deducted', async () => {
    const order = freshId('R');
    await redeemed({ externalTransactionId: order, pointsToRedeem: 100 });
    const before = await gw.balance(MEMBERS.rich.id);
    expectError(await redeem({ externalTransactionId: order, pointsToRedeem: 200 }), 409, 'already_redeemed');
    await redeemed({ externalTransactionId: order, rewardId: REWARDS.fiveOff });
    const otherCustomer = await redeem({ customer: byMembership('MBR-0001'), externalTransactionId: order, rewardId: REWARDS.fiveOff });
    expectError(otherCustomer, 409, 'already_redeemed');
    expect(await gw.balance(MEMBERS.rich.id)).toBe(before - 500);
  });

  it('a 409 already_redeemed says in its message what stands (a till retrying 200 points after a committed 100 learns that 100 stand)', async () => {
    const order = freshId('R');
    await redeemed({ externalTransactionId: order, pointsToRedeem: 100 });
    const before = await gw.balance(MEMBERS.rich.id);
    const conflict = await redeem({ externalTransactionId: order, pointsToRedeem: 200 });
    const points = expectError(conflict, 409, 'already_redeemed');
    expect(points.message).toBe(
      'Already redeemed against this order with a different request: 100 points ($1.00) were deducted then. Apply only that; nothing more was deducted.',
    );
    expect(Object.keys(conflict.json()).sort()).toEqual(['code', 'message', 'requestId', 'statusCode']); // the Error shape, no extra field
    await redeemed({ externalTransactionId: order, rewardId: REWARDS.minSpend, orderValue: 25 });
    const reward = expectError(
      await redeem({ externalTransactionId: order, rewardId: REWARDS.minSpend, orderValue: 30 }),
      409,
      'already_redeemed',
    );
    expect(reward.message).toBe(
      'Already redeemed against this order with a different request: "$2 off orders over $20" was redeemed then (200 points). Apply only that; nothing more was deducted.',
    );
    expect(await gw.balance(MEMBERS.rich.id)).toBe(before - 200);
  });

  it('an identical retry of a redemption a refund reversed is refused 400 redemption_reversed, not replayed with stale figures', async () => {
    const order = freshId('R');
    const body = { externalTransactionId: order, pointsToRedeem: 100 };
    await redeemed(body);
    expect(expectOk(await gw.post(PATHS.refund, { externalTransactionId: order, refundTransactionId: freshId('RF') }))).toMatchObject({
      status: 'REVERSED',
      pointsReCredited: 100,
    });
    const before = await gw.balance(MEMBERS.rich.id);
    const error = expectError(await redeem(body), 400, 'redemption_reversed');
    expect(error.message).toBe(
      `This redemption was refunded (order ${order}): do not apply it. Nothing was deducted now; to redeem again, use a new order id.`,
    );
    expect(await gw.balance(MEMBERS.rich.id)).toBe(before);
  });

  it('a retry with another orderValue is a different payload: 409 already_redeemed, as documented, not ALREADY_PROCESSED', async () => {
    const order = freshId('R');
    const first = await redeemed({ externalTransactionId: order, rewardId: REWARDS.minSpend, orderValue: 25 });
    expect(await redeemed({ externalTransactionId: order, rewardId: REWARDS.minSpend, orderValue: 25 })).toEqual({
      ...first,
      status: 'ALREADY_PROCESSED',
    });
    const before = await gw.balance(MEMBERS.rich.id);
    expectError(await redeem({ externalTransactionId: order, rewardId: REWARDS.minSpend, orderValue: 1 }), 409, 'already_redeemed');
    expectError(await redeem({ externalTransactionId: order, rewardId: REWARDS.minSpend }), 409, 'already_redeemed');
    expect(await gw.balance(MEMBERS.rich.id)).toBe(before);
  });

  it('an upper-case UUID of an existing reward redeems it, not 400 reward_not_found (UUIDs are case-insensitive)', async () => {
    const order = freshId('R');
    const upper = await redeemed({ externalTransactionId: order, rewardId: REWARDS.fiveOff.toUpperCase() });
    expect(upper).toMatchObject({ status: 'REDEEMED', rewardId: REWARDS.fiveOff, pointsDeducted: 500 });
    expect(await redeemed({ externalTransactionId: order, rewardId: REWARDS.fiveOff })).toEqual({ ...upper, status: 'ALREADY_PROCESSED' });
  });

  it('both selectors or neither: 400 selector_required', async () => {
    const both = expectError(await redeem({ rewardId: REWARDS.fiveOff, pointsToRedeem: 10 }), 400, 'selector_required');
    expect(both.message).toBe('Send exactly one of rewardId or pointsToRedeem.');
    expectError(await redeem({}), 400, 'selector_required');
  });

  it('insufficient points: 400 with the cashier message, balance untouched', async () => {
    const before = await gw.balance(MEMBERS.poor.id);
    const error = expectError(
      await redeem({ customer: byMembership(MEMBERS.poor.id), pointsToRedeem: before + 1 }),
      400,
      'insufficient_points',
    );
    expect(error.message).toBe(`Needs ${before + 1} points; customer has ${before} (1 short).`);
    expectError(await redeem({ customer: byMembership(MEMBERS.poor.id), rewardId: REWARDS.fiveOff }), 400, 'insufficient_points');
    expect(await gw.balance(MEMBERS.poor.id)).toBe(before);
  });

  it('minimum spend not met: 400 minimum_spend_not_met with what is missing', async () => {
    const error = expectError(await redeem({ rewardId: REWARDS.minSpend, orderValue: 12.5 }), 400, 'minimum_spend_not_met');
    expect(error.message).toBe('Spend $7.50 more to use this reward (minimum $20.00).');
    expect((await redeemed({ rewardId: REWARDS.minSpend, orderValue: 20 })).pointsDeducted).toBe(200);
  });

  it('not eligible (stamp card incomplete): 400 not_eligible with the card progress', async () => {
    const error = expectError(await redeem({ rewardId: REWARDS.stamp }), 400, 'not_eligible');
    expect(error.message).toMatch(/^Stamp card \d of 5\.$/);
  });

  it('a reward that does not exist: 400 reward_not_found', async () => {
    expectError(await redeem({ rewardId: '00000000-0000-4000-8000-000000000000' }), 400, 'reward_not_found');
  });

  it('not a member: 404 member_not_found (unlike eligibility)', async () => {
    const error = expectError(
      await redeem({ customer: { type: 'email', value: 'nobody@example.com' }, pointsToRedeem: 10 }),
      404,
      'member_not_found',
    );
    expect(error.message).toMatch(/not a member/);
  });

  it('invalid fields: 422 validation_failed naming each path', async () => {
    expect(fieldPaths(expectError(await redeem({ rewardId: 'not-a-uuid' }), 422, 'validation_failed'))).toEqual(['rewardId']);
    for (const pointsToRedeem of [0, -5, 1.5, '10']) {
      expect(fieldPaths(expectError(await redeem({ pointsToRedeem }), 422, 'validation_failed'))).toEqual(['pointsToRedeem']);
    }
    const many = expectError(
      await redeem({ externalTransactionId: 'x'.repeat(256), orderValue: 0, pointsToRedeem: 5, note: 'hi' }),
      422,
      'validation_failed',
    );
    expect(fieldPaths(many).sort()).toEqual(['externalTransactionId', 'note', 'orderValue']);
    expect(fieldPaths(expectError(await gw.post(PATHS.redeem, { pointsToRedeem: 5 }), 400, 'missing_field')).sort()).toEqual([
      'customer',
      'externalTransactionId',
    ]);
  });
});
