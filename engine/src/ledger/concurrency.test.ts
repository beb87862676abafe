import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testDialects } from '@loyalty-gateway/storage/testing';
import { ANN, IDS, SCOPE, balanceOf, ledgerSum, line, openSeededEngine, sale, type TestEngine } from '../testing/fixture.js';

describe.each(testDialects())('concurrency on $name', ({ name }) => {
  let t: TestEngine;
  beforeEach(async () => {
    t = await openSeededEngine(name);
  });
  afterEach(async () => {
    await t.close();
  });

  it('20 parallel copies of one sale: exactly one processed, points and stamps credited once', async () => {
    const command = sale({ totalMinor: 4200, items: [line('Coffee', 2)] });
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => t.engine.earn({ ...command, eventId: `e-${i}` })));
    expect(results.filter((r) => r.status === 'processed')).toHaveLength(1);
    expect(results.filter((r) => r.status === 'duplicate')).toHaveLength(19);
    expect(await balanceOf(t.db, 'MBR-0001')).toBe(1242);
    expect(await ledgerSum(t.db, 'MBR-0001')).toBe(1242);
    const card = await t.db.selectFrom('balances').select('stamps_total').where('reward_id', '=', IDS.stamp).executeTakeFirstOrThrow();
    expect(Number(card.stamps_total)).toBe(2);
  });

  it('ten concurrent redemptions over budget: exactly the ones that fit, never below zero', async () => {
    const attempts = Array.from({ length: 10 }, (_, i) =>
      t.engine.redeem({ ...SCOPE, customer: ANN, externalTransactionId: `order-${i}`, pointsToRedeem: 300 }).then(
        (r) => ({ ok: true as const, r }),
        (e: { code?: string }) => ({ ok: false as const, code: e.code }),
      ),
    );
    const results = await Promise.all(attempts);
    expect(results.filter((r) => r.ok)).toHaveLength(4);
    expect(results.filter((r) => !r.ok).map((r) => (r.ok ? '' : r.code))).toEqual(Array(6).fill('insufficient_points'));
    expect(await balanceOf(t.db, 'MBR-0001')).toBe(0);
    expect(await ledgerSum(t.db, 'MBR-0001')).toBe(0);
  });

  it('ten concurrent POINTS-reward redemptions on different orders: two fit 1200 points at 500', async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) =>
        t.engine.redeem({ ...SCOPE, customer: ANN, externalTransactionId: `o-${i}`, rewardId: IDS.points }),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(2);
    expect(await balanceOf(t.db, 'MBR-0001')).toBe(200);
  });

  it('ten concurrent identical redemptions deduct once; the others replay ALREADY_PROCESSED', async () => {
    const command = { ...SCOPE, customer: ANN, externalTransactionId: 'order-same', pointsToRedeem: 100 };
    const results = await Promise.all(Array.from({ length: 10 }, () => t.engine.redeem(command)));
    expect(results.filter((r) => r.status === 'REDEEMED')).toHaveLength(1);
    expect(results.filter((r) => r.status === 'ALREADY_PROCESSED')).toHaveLength(9);
    expect(new Set(results.map((r) => r.redemptionId)).size).toBe(1);
    expect(results.every((r) => r.walletBalance === 1100)).toBe(true);
    expect(await balanceOf(t.db, 'MBR-0001')).toBe(1100);
  });

  it("redemptions over the member's budget arriving with earns of the same member: never below zero, every point in the ledger", async () => {
    // The redemptions refused in a batch write nothing and leave the batch's earns and other
    // redemptions to commit; an identical copy among them replays its original.
    const command = (i: number) => ({ ...SCOPE, customer: ANN, externalTransactionId: `over-${i}`, pointsToRedeem: 150 });
    const attempts = [...Array.from({ length: 12 }, (_, i) => command(i)), command(0), command(1)].map((c) =>
      t.engine.redeem(c).then(
        (r) => r.status,
        (e: { code?: string }) => e.code,
      ),
    );
    const earns = Array.from({ length: 4 }, () => t.engine.earn(sale({ totalMinor: 5000 })));
    const [statuses, earned] = await Promise.all([Promise.all(attempts), Promise.all(earns)]);
    expect(earned.every((r) => r.status === 'processed')).toBe(true);
    expect(statuses.every((s) => s === 'REDEEMED' || s === 'ALREADY_PROCESSED' || s === 'insufficient_points')).toBe(true);
    const redeemed = statuses.filter((s) => s === 'REDEEMED').length;
    expect(redeemed).toBeGreaterThanOrEqual(8);
    const expected = 1200 + earned.reduce((sum, r) => sum + r.pointsEarned, 0) - 150 * redeemed;
    expect(expected).toBeGreaterThanOrEqual(0);
    expect(await balanceOf(t.db, 'MBR-0001')).toBe(expected);
    expect(await ledgerSum(t.db, 'MBR-0001')).toBe(expected);
    expect(await t.db.selectFrom('redemptions').select('id').execute()).toHaveLength(redeemed);
  });

  it('parallel partial refunds of one sale never reverse more than was earned', async () => {
    const command = sale({ totalMinor: 10_000 });
    await t.engine.earn(command);
    const refunds = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        t.engine.reverse({ ...SCOPE, transactionId: command.transaction.id, refundId: `r-${i}`, amountMinor: 2_000 }),
      ),
    );
    expect(refunds.reduce((sum, r) => sum + r.pointsReversed, 0)).toBe(100);
    expect(await balanceOf(t.db, 'MBR-0001')).toBe(1200);
  });
});
