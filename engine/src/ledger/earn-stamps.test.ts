import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testDialects } from '@loyalty-gateway/storage/testing';
import { ANN, IDS, SCOPE, balanceOf, line, openSeededEngine, sale, type TestEngine } from '../testing/fixture.js';

const TITLE = 'Buy 5 coffees, get one free';

describe.each(testDialects())('stamps on $name', ({ name }) => {
  let t: TestEngine;
  beforeEach(async () => {
    t = await openSeededEngine(name);
  });
  afterEach(async () => {
    await t.close();
  });

  /** Completed, not yet redeemed stamp cards of MBR-0001 (counted on the card's row, never one row each). */
  const available = async () => {
    const card = await t.db
      .selectFrom('balances')
      .innerJoin('members', 'members.id', 'balances.member_id')
      .select(['balances.cards_completed', 'balances.cards_redeemed'])
      .where('members.membership_id', '=', 'MBR-0001')
      .where('balances.reward_id', '=', IDS.stamp)
      .executeTakeFirst();
    return card ? Number(card.cards_completed) - Number(card.cards_redeemed) : 0;
  };
  const rewardRows = async () =>
    (await t.db.selectFrom('reward_instances').select('id').where('reward_id', '=', IDS.stamp).execute()).length;

  it('adds the quantity of lines matched by exact SKU or by keyword in the name', async () => {
    const result = await t.engine.earn(
      sale({ items: [line('Latte grande', 2, { sku: 'COF-LATTE' }), line('Iced COFFEE', 1), line('Muffin', 3, { sku: 'MUF-1' })] }),
    );
    expect(result.stampsUpdated).toEqual([{ rewardId: IDS.stamp, rewardTitle: TITLE, current: 3, required: 5, completed: false }]);
  });

  it('does not match a SKU by case or a keyword by SKU; no matching line, no stamp update', async () => {
    const result = await t.engine.earn(sale({ items: [line('Tea', 1, { sku: 'cof-latte' }), line('Scone', 1, { sku: 'coffee' })] }));
    expect(result.stampsUpdated).toEqual([]);
    expect(result.pointsEarned).toBe(12);
  });

  it('completes a card at stampsRequired and starts the next one with the overflow', async () => {
    await t.engine.earn(sale({ items: [line('Coffee', 3)] }));
    const second = await t.engine.earn(sale({ items: [line('Coffee', 3)] }));
    expect(second.stampsUpdated[0]).toMatchObject({ current: 1, required: 5, completed: true });
    expect(await available()).toBe(1);
  });

  it('turns 12 stamps on a fresh 5-card into 2 redeemable rewards and a card at 2', async () => {
    const result = await t.engine.earn(sale({ items: [line('Flat white coffee', 12)] }));
    expect(result.stampsUpdated).toEqual([{ rewardId: IDS.stamp, rewardTitle: TITLE, current: 2, required: 5, completed: true }]);
    expect(await available()).toBe(2);
  });

  it('a sale completing thousands of cards stays within the bound-parameter limit (500): completed cards are counted', async () => {
    // 15,000 coffees on a 5-card: 3,000 completed cards (counted, not 3,000 rows: that would be 33,000 parameters in one INSERT).
    const result = await t.engine.earn(sale({ items: [line('Coffee', 15_000)] }));
    expect(result.stampsUpdated).toEqual([{ rewardId: IDS.stamp, rewardTitle: TITLE, current: 0, required: 5, completed: true }]);
    expect(await available()).toBe(3_000);
  });

  it('the work does not depend on quantity: a huge quantity (1e12) builds no reward row per completed card', async () => {
    const started = performance.now();
    const result = await t.engine.earn(sale({ items: [line('Coffee', 1e12 + 3)] }));
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(result.stampsUpdated).toEqual([{ rewardId: IDS.stamp, rewardTitle: TITLE, current: 3, required: 5, completed: true }]);
    expect(await available()).toBe(2e11);
    expect(await rewardRows()).toBe(0);
    const redeemed = await t.engine.redeem({ ...SCOPE, customer: ANN, externalTransactionId: 'big-1', rewardId: IDS.stamp });
    expect(redeemed).toMatchObject({ status: 'REDEEMED', pointsDeducted: 0 });
    expect(await available()).toBe(2e11 - 1);
  });

  it('a sale that would take a stamp total past 2^53 is refused (422, naming the lines) and nothing is recorded, rather than losing precision silently', async () => {
    const tooMany = sale({ items: [line('Coffee', Number.MAX_SAFE_INTEGER), line('Latte', 1, { sku: 'COF-LATTE' })] });
    const error = await t.engine.earn(tooMany).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({
      code: 'validation_failed',
      statusCode: 422,
      fields: [{ path: 'transaction.items', message: expect.stringMatching(/Buy 5 coffees.*9007199254740991/) }],
    });
    await t.engine.earn(sale({ items: [line('Coffee', Number.MAX_SAFE_INTEGER - 10)] }));
    const last = sale({ totalMinor: 5000, items: [line('Coffee', 11)] });
    await expect(t.engine.earn(last)).rejects.toMatchObject({ code: 'validation_failed', fields: [{ path: 'transaction.items' }] });
    expect(await t.db.selectFrom('sales').select('id').where('transaction_id', '=', last.transaction.id).execute()).toEqual([]);
    expect(await balanceOf(t.db, 'MBR-0001')).toBe(1212); // the first sale's 12 points only
    expect((await t.engine.earn(sale({ items: [line('Coffee', 10)] }))).stampsUpdated[0]).toMatchObject({
      current: Number.MAX_SAFE_INTEGER % 5,
    });
  });

  it('gives stamps to no one on a walk-in sale', async () => {
    const result = await t.engine.earn(sale({ customer: undefined, items: [line('Coffee', 5)] }));
    expect(result.stampsUpdated).toEqual([]);
    expect(await available()).toBe(0);
  });

  it('does not warn a member who earned stamps but no points', async () => {
    const result = await t.engine.earn(sale({ totalMinor: 50, items: [line('Coffee', 1)] }));
    expect(result).toMatchObject({ pointsEarned: 0, warning: null });
    expect(result.stampsUpdated).toHaveLength(1);
  });

  it('matches a line through the catalog: its id names a catalog item whose sku is in the rule', async () => {
    await t.engine.catalogSync({ ...SCOPE, items: [{ externalId: 'prod-77', name: 'Latte', sku: 'COF-LATTE', isActive: true }] });
    const byId = await t.engine.earn(sale({ items: [line('Item 77', 2, { id: 'prod-77' })] }));
    expect(byId.stampsUpdated[0]).toMatchObject({ current: 2 });
    const bySkuField = await t.engine.earn(sale({ items: [line('Item 77', 1, { sku: 'prod-77' })] }));
    expect(bySkuField.stampsUpdated[0]).toMatchObject({ current: 3 });
    const otherOutlet = await t.engine.earn(sale({ items: [line('Item 77', 1, { id: 'prod-77' })] }, { ...SCOPE, outletId: 'o-other' }));
    expect(otherOutlet.stampsUpdated).toEqual([]);
  });
});
