import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RedeemCommand } from '@loyalty-gateway/core';
import { testDialects } from '@loyalty-gateway/storage/testing';
import { ANN, BOB, IDS, SCOPE, balanceOf, ledgerSum, line, openSeededEngine, sale, type TestEngine } from '../testing/fixture.js';

describe.each(testDialects())('redeem on $name', ({ name }) => {
  let t: TestEngine;
  beforeEach(async () => {
    t = await openSeededEngine(name);
  });
  afterEach(async () => {
    await t.close();
  });

  const redeem = (extra: Partial<RedeemCommand>) =>
    t.engine.redeem({ ...SCOPE, customer: ANN, externalTransactionId: 'order-1', ...extra });

  it("deducts a POINTS reward's cost and reports the balance after", async () => {
    const result = await redeem({ rewardId: IDS.points });
    expect(result).toMatchObject({
      status: 'REDEEMED',
      membershipId: 'MBR-0001',
      rewardId: IDS.points,
      pointsDeducted: 500,
      walletBalance: 700,
    });
    expect(result.redemptionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(await ledgerSum(t.db, 'MBR-0001')).toBe(700);
  });

  it('deducts pointsToRedeem directly', async () => {
    expect(await redeem({ pointsToRedeem: 250 })).toMatchObject({
      status: 'REDEEMED',
      rewardId: null,
      pointsDeducted: 250,
      walletBalance: 950,
    });
  });

  it('replays an identical retry with the original figures and deducts nothing', async () => {
    const first = await redeem({ pointsToRedeem: 250 });
    await redeem({ externalTransactionId: 'order-2', pointsToRedeem: 100 });
    const again = await redeem({ pointsToRedeem: 250 });
    expect(again).toEqual({ ...first, status: 'ALREADY_PROCESSED' });
    expect(await balanceOf(t.db, 'MBR-0001')).toBe(850);
  });

  it('answers 409 already_redeemed for the same order and reward with a different payload', async () => {
    await redeem({ pointsToRedeem: 250 });
    await expect(redeem({ pointsToRedeem: 300 })).rejects.toMatchObject({ code: 'already_redeemed', statusCode: 409 });
    await t.engine.earn(sale({ customer: BOB, totalMinor: 100_000 }));
    await expect(redeem({ customer: BOB, pointsToRedeem: 250 })).rejects.toMatchObject({ code: 'already_redeemed' });
    expect(await balanceOf(t.db, 'MBR-0001')).toBe(950);
  });

  it('an identical retry of a redemption a refund reversed is 400 redemption_reversed, not ALREADY_PROCESSED with stale figures', async () => {
    await redeem({ pointsToRedeem: 100 });
    expect(await t.engine.reverse({ ...SCOPE, transactionId: 'order-1', refundId: 'r-1' })).toMatchObject({
      status: 'REVERSED',
      pointsReCredited: 100,
    });
    const error = await redeem({ pointsToRedeem: 100 }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: 'redemption_reversed', statusCode: 400 });
    expect((error as Error).message).toBe(
      'This redemption was refunded (order order-1): do not apply it. Nothing was deducted now; to redeem again, use a new order id.',
    );
    await expect(redeem({ pointsToRedeem: 999 })).rejects.toMatchObject({ code: 'redemption_reversed' });
    expect(await balanceOf(t.db, 'MBR-0001')).toBe(1200);
  });

  it('orderValue is part of the request: a retry with another orderValue is a different payload (409), not ALREADY_PROCESSED', async () => {
    const first = await redeem({ rewardId: IDS.discount, orderValueMinor: 5000 });
    expect(first.status).toBe('REDEEMED');
    expect(await redeem({ rewardId: IDS.discount, orderValueMinor: 5000 })).toEqual({ ...first, status: 'ALREADY_PROCESSED' });
    await expect(redeem({ rewardId: IDS.discount, orderValueMinor: 100 })).rejects.toMatchObject({
      code: 'already_redeemed',
      statusCode: 409,
    });
    await expect(redeem({ rewardId: IDS.discount })).rejects.toMatchObject({ code: 'already_redeemed' });
    await redeem({ externalTransactionId: 'order-2', pointsToRedeem: 10 });
    await expect(redeem({ externalTransactionId: 'order-2', pointsToRedeem: 10, orderValueMinor: 2500 })).rejects.toMatchObject({
      code: 'already_redeemed',
    });
  });

  it('an upper-case UUID of an existing reward finds it, not reward_not_found (UUIDs are case-insensitive)', async () => {
    const upper = await redeem({ rewardId: IDS.points.toUpperCase() });
    expect(upper).toMatchObject({ status: 'REDEEMED', rewardId: IDS.points, pointsDeducted: 500 });
    expect(await redeem({ rewardId: IDS.points })).toEqual({ ...upper, status: 'ALREADY_PROCESSED' });
    await expect(redeem({ rewardId: IDS.unknown.toUpperCase() })).rejects.toMatchObject({ code: 'reward_not_found' });
    expect(await balanceOf(t.db, 'MBR-0001')).toBe(700);
  });

  it('keys idempotency per reward: the same order may redeem points and a reward', async () => {
    await redeem({ pointsToRedeem: 100 });
    expect((await redeem({ rewardId: IDS.points })).status).toBe('REDEEMED');
    expect(await balanceOf(t.db, 'MBR-0001')).toBe(600);
  });

  it('refuses with the numbers when points are short', async () => {
    await expect(redeem({ pointsToRedeem: 1500 })).rejects.toMatchObject({
      code: 'insufficient_points',
      statusCode: 400,
      message: 'Needs 1500 points; customer has 1200 (300 short).',
    });
  });

  it('refuses a non-member (404), an unknown reward, and a bad selector', async () => {
    await expect(redeem({ customer: { type: 'phone', value: '+15559999999' }, pointsToRedeem: 1 })).rejects.toMatchObject({
      code: 'member_not_found',
      statusCode: 404,
    });
    await expect(redeem({ rewardId: IDS.unknown })).rejects.toMatchObject({ code: 'reward_not_found' });
    await expect(redeem({})).rejects.toMatchObject({ code: 'selector_required' });
    await expect(redeem({ rewardId: IDS.points, pointsToRedeem: 5 })).rejects.toMatchObject({ code: 'selector_required' });
  });

  it('consumes one completed stamp card; without one it is not eligible', async () => {
    await expect(redeem({ rewardId: IDS.stamp })).rejects.toMatchObject({ code: 'not_eligible', message: 'Stamp card 0 of 5.' });
    await t.engine.earn(sale({ items: [line('Coffee', 7)] }));
    expect(await redeem({ rewardId: IDS.stamp })).toMatchObject({ status: 'REDEEMED', pointsDeducted: 0, walletBalance: 1212 });
    await expect(redeem({ externalTransactionId: 'order-2', rewardId: IDS.stamp })).rejects.toMatchObject({
      message: 'Stamp card 2 of 5.',
    });
  });

  it('consumes an issued DISCOUNT once, with its minimum spend checked', async () => {
    await expect(redeem({ rewardId: IDS.discount, orderValueMinor: 3750 })).rejects.toMatchObject({
      code: 'minimum_spend_not_met',
      message: 'Spend $12.50 more to use this reward (minimum $50.00).',
    });
    await expect(redeem({ rewardId: IDS.discount })).rejects.toMatchObject({
      code: 'minimum_spend_not_met',
      message: expect.stringMatching(/Order value needed/),
    });
    expect(await redeem({ rewardId: IDS.discount, orderValueMinor: 5000 })).toMatchObject({ status: 'REDEEMED', pointsDeducted: 0 });
    await expect(redeem({ externalTransactionId: 'order-2', rewardId: IDS.discount, orderValueMinor: 9000 })).rejects.toMatchObject({
      code: 'not_eligible',
      message: 'Code LOYAL-7QX2 already used.',
    });
  });

  it('refuses a reward not issued to this member', async () => {
    await expect(redeem({ customer: BOB, rewardId: IDS.freeItem })).rejects.toMatchObject({
      code: 'not_eligible',
      message: expect.stringMatching(/not been issued/),
    });
  });

  it('TIER: redeemable once lifetime points reach the threshold, deducting nothing', async () => {
    await expect(redeem({ rewardId: IDS.tier })).rejects.toMatchObject({
      code: 'not_eligible',
      message: expect.stringMatching(/2000 lifetime points.*1200 \(800 short\)/),
    });
    await t.engine.earn(sale({ totalMinor: 80_000 }));
    await redeem({ externalTransactionId: 'spend', pointsToRedeem: 1500 });
    expect(await redeem({ rewardId: IDS.tier })).toMatchObject({ status: 'REDEEMED', pointsDeducted: 0, walletBalance: 500 });
  });
});
