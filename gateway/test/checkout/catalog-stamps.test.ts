import { testDialects } from '@loyalty-gateway/storage/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayFixture } from '../../src/testing/gateway-fixture.js';
import { ODD_STORE, OTHER_SECRET, STORE, sale } from '../../src/testing/test-seed.js';
import { PATHS, REWARDS, expectOk, openCheckoutGateway } from '../../src/testing/checkout-kit.js';

/** The synced catalog as stamp rules see it, through POST /v1/catalog/sync and the earn webhook. */
describe.each(testDialects())('stamp rules on synced catalog items ($name)', ({ name }) => {
  let gw: GatewayFixture;
  beforeAll(async () => {
    gw = await openCheckoutGateway(name);
  });
  afterAll(() => gw.close());

  // A catalog item whose SKU is in the stamp rule; sale lines name it by id only (no sku, no keyword).
  const blend = { externalId: 'p-77', name: 'House blend', sku: 'COF-LATTE', isActive: true };
  const sync = async (items: unknown[]) => expectOk(await gw.post(PATHS.catalog, { store: { id: STORE }, items }));
  const saleNaming = (quantity: number, store = STORE) => {
    const base = sale({ store });
    return { ...base, transaction: { ...base.transaction, items: [{ id: 'p-77', name: 'Item 77', quantity, unitPrice: 4 }] } };
  };
  const stampsOf = async (body: unknown, options = {}) => (await gw.send(body, options)).json().stampsUpdated;

  it("a sale line matches a stamp rule through the synced item its id names; another outlet's catalog does not have it", async () => {
    expect(await sync([blend])).toMatchObject({ itemsCreated: 1 });
    expect(await stampsOf(saleNaming(3))).toEqual([
      { rewardId: REWARDS.stamp, rewardTitle: 'Buy 5 coffees, get one free', current: 3, required: 5, completed: false },
    ]);
    expect(await stampsOf(saleNaming(3, ODD_STORE), { store: ODD_STORE, secret: OTHER_SECRET })).toEqual([]);
  });

  it('a deactivated item keeps its history: its row (back as an update, not a new item), the stamps it earned, and lines naming it still match', async () => {
    expect(await sync([])).toMatchObject({ itemsReceived: 0, itemsDeactivated: 1 });
    expect(await stampsOf(saleNaming(2))).toEqual([expect.objectContaining({ current: 0, completed: true })]); // 3 earlier + 2
    expect(await sync([blend])).toEqual({ status: 'synced', itemsReceived: 1, itemsCreated: 0, itemsUpdated: 1, itemsDeactivated: 0 });
  });
});
