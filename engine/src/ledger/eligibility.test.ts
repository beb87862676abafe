import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EligibilityResult } from '@loyalty-gateway/core';
import { testDialects } from '@loyalty-gateway/storage/testing';
import { ANN, BOB, IDS, SCOPE, balanceOf, line, openSeededEngine, sale, type TestEngine } from '../testing/fixture.js';

describe.each(testDialects())('eligibility on $name', ({ name }) => {
  let t: TestEngine;
  beforeEach(async () => {
    t = await openSeededEngine(name);
  });
  afterEach(async () => {
    await t.close();
  });

  const check = (customer = ANN, orderValueMinor?: number) => t.engine.eligibility({ ...SCOPE, customer, orderValueMinor });
  const byId = (result: EligibilityResult) => Object.fromEntries(result.eligibleRewards.map((r) => [r.rewardId, r]));

  it('lists every reward with type, cost, value and a cashier reason; valid against the schema', async () => {
    const result = await check(ANN, 6000);
    expect(EligibilityResult.parse(result)).toEqual(result);
    expect(result).toMatchObject({ membershipId: 'MBR-0001', walletBalance: 1200, redemptionRate: 100, warning: null });
    const r = byId(result);
    expect(result.eligibleRewards.map((x) => x.rewardId)).toEqual([IDS.stamp, IDS.points, IDS.discount, IDS.freeItem, IDS.tier]);
    expect(r[IDS.stamp]).toEqual({
      rewardId: IDS.stamp,
      title: 'Buy 5 coffees, get one free',
      type: 'STAMP',
      pointsCost: null,
      discountValue: null,
      eligible: false,
      reason: 'Stamp card 0 of 5.',
    });
    expect(r[IDS.points]).toMatchObject({ type: 'POINTS', pointsCost: 500, discountValue: 5, eligible: true, reason: null });
    expect(r[IDS.discount]).toMatchObject({ type: 'DISCOUNT', pointsCost: null, discountValue: 10, eligible: true });
    expect(r[IDS.freeItem]).toMatchObject({ type: 'FREE_ITEM', eligible: true });
    expect(r[IDS.tier]).toMatchObject({ type: 'TIER', discountValue: 2, eligible: false });
  });

  it('explains points short, minimum spend, stamp progress and used codes', async () => {
    await t.engine.earn(sale({ items: [line('Coffee', 3)], discountCodes: [{ code: 'LOYAL-7QX2' }] }));
    const r = byId(await check(BOB, 3750));
    expect(r[IDS.points]!.reason).toBe('Needs 500 points; customer has 0 (500 short).');
    const ann = byId(await check(ANN, 3750));
    expect(ann[IDS.stamp]!.reason).toBe('Stamp card 3 of 5.');
    expect(ann[IDS.discount]!.reason).toBe('Code LOYAL-7QX2 already used.');
    expect(ann[IDS.freeItem]).toMatchObject({ eligible: true });
  });

  it('decision: a minimum-spend reward without orderValue is not eligible, "order value needed"', async () => {
    await t.engine.applySeed({ merchants: [] });
    const r = byId(await check(ANN));
    expect(r[IDS.discount]).toMatchObject({ eligible: false, reason: 'Order value needed to check the minimum spend of $50.00.' });
    const under = byId(await check(ANN, 3750));
    expect(under[IDS.discount]!.reason).toBe('Spend $12.50 more to use this reward (minimum $50.00).');
  });

  it('a non-member gets 200 with an empty membershipId, no rewards and a warning', async () => {
    const result = await check({ type: 'email', value: 'stranger@example.com' });
    expect(result).toMatchObject({ membershipId: '', walletBalance: 0, eligibleRewards: [], redemptionRate: 100 });
    expect(result.warning).toMatch(/not found/);
  });

  it('is read-only', async () => {
    await check(ANN, 1000);
    const ledger = await t.db.selectFrom('ledger_entries').select('id').execute();
    const sales = await t.db.selectFrom('sales').select('id').execute();
    expect([ledger.length, sales.length]).toEqual([1, 0]);
  });

  it('cashier messages pluralise counts ("Needs 1 point", never "Needs 1 points")', async () => {
    const error = await t.engine.redeem({ ...SCOPE, customer: BOB, externalTransactionId: 'o-1', pointsToRedeem: 1 }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: 'insufficient_points', message: 'Needs 1 point; customer has 0 (1 short).' });
  });

  it('after a refund took back points already spent, eligibility shows 0 spendable and explains the debt (never walletBalance -500 or "customer has -500")', async () => {
    const big = sale({ customer: BOB, totalMinor: 50_000 });
    await t.engine.earn(big);
    await t.engine.redeem({ ...SCOPE, customer: BOB, externalTransactionId: 'later-order', pointsToRedeem: 500 });
    await t.engine.reverse({ ...SCOPE, transactionId: big.transaction.id, refundId: 'r-1' });
    const result = await check(BOB);
    expect(result).toMatchObject({ membershipId: 'MBR-0002', walletBalance: 0 });
    expect(result.warning).toBe(
      'This customer owes 500 points: a refund took back points already spent. Nothing can be redeemed with points until they are earned back.',
    );
    expect(byId(result)[IDS.points]!.reason).toBe(
      'Needs 500 points; customer has none to spend (owes 500 points after a refund) (1000 short).',
    );
    const error = await t.engine.redeem({ ...SCOPE, customer: BOB, externalTransactionId: 'o-2', pointsToRedeem: 1 }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({
      code: 'insufficient_points',
      message: 'Needs 1 point; customer has none to spend (owes 500 points after a refund) (501 short).',
    });
    await t.engine.earn(sale({ customer: BOB, totalMinor: 100, items: [line('Coffee', 5)] })); // 1 point: still owes 499
    const stamp = await t.engine.redeem({ ...SCOPE, customer: BOB, externalTransactionId: 'o-3', rewardId: IDS.stamp });
    expect(stamp).toMatchObject({ status: 'REDEEMED', pointsDeducted: 0, walletBalance: 0 });
    expect(await balanceOf(t.db, 'MBR-0002')).toBe(-499); // the ledger stays true
  });
});
