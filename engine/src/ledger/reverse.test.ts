import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testDialects } from '@loyalty-gateway/storage/testing';
import { ANN, IDS, SCOPE, balanceOf, ledgerSum, line, openSeededEngine, sale, type TestEngine } from '../testing/fixture.js';

describe.each(testDialects())('reverse on $name', ({ name }) => {
  let t: TestEngine;
  beforeEach(async () => {
    t = await openSeededEngine(name);
  });
  afterEach(async () => {
    await t.close();
  });

  const refund = (transactionId: string, refundId: string, amountMinor?: number) =>
    t.engine.reverse({ ...SCOPE, transactionId, refundId, amountMinor });

  it('reverses a full refund exactly once', async () => {
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
    expect(await balanceOf(t.db, 'MBR-0001')).toBe(1200);
    expect(await ledgerSum(t.db, 'MBR-0001')).toBe(1200);
  });

  it('a replay carries the stored figures (not 0/0); a refund id reused for another sale is 400 refund_id_reused, not ALREADY_PROCESSED', async () => {
    const command = sale({ totalMinor: 2000 });
    await t.engine.redeem({ ...SCOPE, customer: ANN, externalTransactionId: command.transaction.id, pointsToRedeem: 150 });
    await t.engine.earn(command);
    const first = await refund(command.transaction.id, 'r-1');
    expect(first).toEqual({ status: 'REVERSED', pointsReversed: 20, pointsReCredited: 150, membershipId: 'MBR-0001' });
    expect(await refund(command.transaction.id, 'r-1')).toEqual({ ...first, status: 'ALREADY_PROCESSED' });
    const other = sale({ totalMinor: 3000 });
    await t.engine.earn(other);
    const reused = await refund(other.transaction.id, 'r-1').then(
      () => null,
      (e: unknown) => e,
    );
    expect(reused).toMatchObject({ code: 'refund_id_reused', statusCode: 400 });
    expect((reused as Error).message).toBe(
      `Refund id r-1 was already used for a refund of order ${command.transaction.id}; nothing was reversed now. Give every refund its own id.`,
    );
    await expect(refund(command.transaction.id, 'r-1', 500)).rejects.toMatchObject({
      code: 'refund_id_reused',
      message:
        'Refund id r-1 was already used for a refund of this order with another amount; nothing was reversed now. Give every refund its own id.',
    });
    expect(await balanceOf(t.db, 'MBR-0001')).toBe(1200 + 30);
    expect((await refund(other.transaction.id, 'r-2')).pointsReversed).toBe(30);
  });

  it('computes partial refunds on the cumulative amount; the last one reverses the remainder', async () => {
    const command = sale({ totalMinor: 1000 }); // earns 10
    await t.engine.earn(command);
    const a = await refund(command.transaction.id, 'r-a', 333); // target floor(10×333/1000)=3
    const b = await refund(command.transaction.id, 'r-b', 333); // target floor(10×666/1000)=6
    const c = await refund(command.transaction.id, 'r-c', 334); // cumulative = total → 10
    expect([a.pointsReversed, b.pointsReversed, c.pointsReversed]).toEqual([3, 3, 4]);
    const after = await refund(command.transaction.id, 'r-d', 500);
    expect(after).toMatchObject({ status: 'NOTHING_TO_REVERSE', pointsReversed: 0 });
    expect(await balanceOf(t.db, 'MBR-0001')).toBe(1200);
  });

  it('caps an over-refund at what was earned', async () => {
    const command = sale({ totalMinor: 1000 });
    await t.engine.earn(command);
    await refund(command.transaction.id, 'r-1', 900);
    expect((await refund(command.transaction.id, 'r-2', 900)).pointsReversed).toBe(1);
    expect(await balanceOf(t.db, 'MBR-0001')).toBe(1200);
  });

  it('a full refund after a partial one reverses exactly the remainder', async () => {
    const command = sale({ totalMinor: 1000 });
    await t.engine.earn(command);
    expect((await refund(command.transaction.id, 'r-1', 250)).pointsReversed).toBe(2);
    expect((await refund(command.transaction.id, 'r-2')).pointsReversed).toBe(8);
  });

  it('unknown sale or a sale that earned nothing: NOTHING_TO_REVERSE, still deduped', async () => {
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
    const command = sale({ totalMinor: 2000 }); // earns 20
    await t.engine.redeem({ ...SCOPE, customer: ANN, externalTransactionId: command.transaction.id, rewardId: IDS.points });
    await t.engine.redeem({ ...SCOPE, customer: ANN, externalTransactionId: command.transaction.id, pointsToRedeem: 100 });
    await t.engine.earn(command);
    expect(await balanceOf(t.db, 'MBR-0001')).toBe(1200 - 600 + 20);
    const partial = await refund(command.transaction.id, 'r-1', 1000);
    expect(partial).toMatchObject({ status: 'REVERSED', pointsReversed: 10, pointsReCredited: 0 });
    const rest = await refund(command.transaction.id, 'r-2', 1000);
    expect(rest).toMatchObject({ status: 'REVERSED', pointsReversed: 10, pointsReCredited: 600 });
    expect((await refund(command.transaction.id, 'r-3')).pointsReCredited).toBe(0);
    expect(await balanceOf(t.db, 'MBR-0001')).toBe(1200);
    expect(await ledgerSum(t.db, 'MBR-0001')).toBe(1200);
  });

  it('restores a stamp reward and an issued code consumed against the refunded sale', async () => {
    await t.engine.earn(sale({ items: [line('Coffee', 5)] }));
    const command = sale({ totalMinor: 6000, discountCodes: [{ code: 'LOYAL-MUF1' }] });
    await t.engine.redeem({ ...SCOPE, customer: ANN, externalTransactionId: command.transaction.id, rewardId: IDS.stamp });
    await t.engine.redeem({
      ...SCOPE,
      customer: ANN,
      externalTransactionId: command.transaction.id,
      rewardId: IDS.discount,
      orderValueMinor: 6000,
    });
    await t.engine.earn(command);
    const statuses = async () =>
      (await t.db.selectFrom('reward_instances').select('status').orderBy('reward_id').execute()).map((r) => r.status);
    const cards = async () => {
      const card = await t.db
        .selectFrom('balances')
        .select(['cards_completed', 'cards_redeemed'])
        .where('reward_id', '=', IDS.stamp)
        .executeTakeFirstOrThrow();
      return [Number(card.cards_completed), Number(card.cards_redeemed)];
    };
    expect(await statuses()).toEqual(['used', 'used']);
    expect(await cards()).toEqual([1, 1]);
    expect(await refund(command.transaction.id, 'r-1')).toMatchObject({ status: 'REVERSED', pointsReversed: 60, pointsReCredited: 0 });
    expect(await statuses()).toEqual(['available', 'available']);
    expect(await cards()).toEqual([1, 0]);
    expect((await t.engine.redeem({ ...SCOPE, customer: ANN, externalTransactionId: 'next-order', rewardId: IDS.stamp })).status).toBe(
      'REDEEMED',
    );
  });

  it('re-credits redemptions against an order that never reached the engine (abandoned sale)', async () => {
    await t.engine.redeem({ ...SCOPE, customer: ANN, externalTransactionId: 'abandoned', pointsToRedeem: 250 });
    expect(await refund('abandoned', 'r-1')).toEqual({
      status: 'REVERSED',
      pointsReversed: 0,
      pointsReCredited: 250,
      membershipId: 'MBR-0001',
    });
    expect(await balanceOf(t.db, 'MBR-0001')).toBe(1200);
  });

  it('lets the wallet go below zero only by reversing points already spent (the ledger stays true)', async () => {
    const command = sale({ customer: { type: 'membershipId', value: 'MBR-0002' }, totalMinor: 50_000 });
    await t.engine.earn(command);
    await t.engine.redeem({
      ...SCOPE,
      customer: { type: 'membershipId', value: 'MBR-0002' },
      externalTransactionId: 'later-order',
      pointsToRedeem: 500,
    });
    expect(await refund(command.transaction.id, 'r-1')).toMatchObject({ pointsReversed: 500 });
    expect(await balanceOf(t.db, 'MBR-0002')).toBe(-500);
    expect(await ledgerSum(t.db, 'MBR-0002')).toBe(-500);
    await expect(
      t.engine.redeem({ ...SCOPE, customer: { type: 'membershipId', value: 'MBR-0002' }, externalTransactionId: 'x', pointsToRedeem: 1 }),
    ).rejects.toMatchObject({ code: 'insufficient_points' });
  });

  it('scopes refund ids and sales to the source', async () => {
    const command = sale({ totalMinor: 1000 });
    await t.engine.earn(command);
    const other = await t.engine.reverse({
      ...SCOPE,
      source: { vendor: 'other', storeId: 'store-001' },
      transactionId: command.transaction.id,
      refundId: 'r-1',
    });
    expect(other.status).toBe('NOTHING_TO_REVERSE');
    expect((await refund(command.transaction.id, 'r-1')).status).toBe('REVERSED');
  });
});
