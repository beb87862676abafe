import { CatalogSyncResult } from '@loyalty-gateway/core';
import { testDialects } from '@loyalty-gateway/storage/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayFixture } from '../../src/testing/gateway-fixture.js';
import { ODD_STORE, OTHER_SECRET, STORE } from '../../src/testing/test-seed.js';
import { PATHS, expectError, expectOk, fieldPaths, openCheckoutGateway } from '../../src/testing/checkout-kit.js';

const latte = { externalId: 'p-latte', name: 'Latte', sku: 'COF-LATTE', category: 'Coffee', price: 4.5, isActive: true };
const muffin = { externalId: 'p-muffin', name: 'Muffin', sku: 'BAK-MUFFIN', category: 'Bakery', price: 3.5, isActive: true };
const tea = { externalId: 'p-tea', name: 'Tea', isActive: true };
const scone = { externalId: 'p-scone', name: 'Scone', price: 2.75, isActive: false };

describe.each(testDialects())('POST /v1/catalog/sync ($name)', ({ name }) => {
  let gw: GatewayFixture;
  beforeAll(async () => {
    gw = await openCheckoutGateway(name);
  });
  afterAll(() => gw.close());

  const sync = async (items: unknown[], store = STORE, secret?: string) =>
    CatalogSyncResult.parse(
      expectOk(await gw.post(PATHS.catalog, { store: { id: store, name: 'Downtown' }, items }, { store, ...(secret ? { secret } : {}) })),
    );
  const counts = (r: CatalogSyncResult) => [r.itemsReceived, r.itemsCreated, r.itemsUpdated, r.itemsDeactivated];

  it('full snapshots: created / updated / deactivated counted exactly; unchanged items are not updates', async () => {
    expect(await sync([latte, muffin, tea])).toEqual({
      status: 'synced',
      itemsReceived: 3,
      itemsCreated: 3,
      itemsUpdated: 0,
      itemsDeactivated: 0,
    });
    expect(counts(await sync([latte, muffin, tea]))).toEqual([3, 0, 0, 0]);
    // muffin's price changes, tea is absent (deactivated), scone is new (inactive by its flag)
    expect(counts(await sync([latte, { ...muffin, price: 3.75 }, scone]))).toEqual([3, 1, 1, 1]);
    // tea stays absent: already inactive, not counted again
    expect(counts(await sync([latte, { ...muffin, price: 3.75 }, scone]))).toEqual([3, 0, 0, 0]);
    // tea comes back (an update of the kept row, never a second item); sku removed from latte is a change
    const { sku: _sku, ...latteWithoutSku } = latte;
    expect(counts(await sync([latteWithoutSku, { ...muffin, price: 3.75 }, scone, tea]))).toEqual([4, 0, 2, 0]);
    // an empty snapshot deactivates every active item (latte, muffin, tea), never deletes
    expect(counts(await sync([]))).toEqual([0, 0, 0, 3]);
    expect(counts(await sync([latte]))).toEqual([1, 0, 1, 0]);
  });

  it('each outlet has its own catalog', async () => {
    expect(counts(await sync([{ ...latte, externalId: 'u-latte' }], ODD_STORE, OTHER_SECRET))).toEqual([1, 1, 0, 0]);
    expect(counts(await sync([latte]))).toEqual([1, 0, 0, 0]);
  });

  it('store.id different from X-Service-Store: 400 store_mismatch, nothing synced', async () => {
    const response = await gw.post(PATHS.catalog, { store: { id: ODD_STORE }, items: [{ ...latte, externalId: 'never' }] });
    expectError(response, 400, 'store_mismatch');
    expect(counts(await sync([latte]))).toEqual([1, 0, 0, 0]);
  });

  it('isActive missing: 400 missing_field naming items[i].isActive', async () => {
    const { isActive: _isActive, ...noFlag } = muffin;
    const error = expectError(await gw.post(PATHS.catalog, { store: { id: STORE }, items: [latte, noFlag] }), 400, 'missing_field');
    expect(fieldPaths(error)).toEqual(['items[1].isActive']);
  });

  it('invalid items: 422 validation_failed naming each path; duplicate externalIds refused', async () => {
    const bad = expectError(
      await gw.post(PATHS.catalog, {
        store: { id: STORE },
        items: [
          { ...latte, price: 0, color: 'red' },
          { ...tea, name: 'n'.repeat(256), isActive: 'yes' },
        ],
      }),
      422,
      'validation_failed',
    );
    expect(fieldPaths(bad).sort()).toEqual(['items[0].color', 'items[0].price', 'items[1].isActive', 'items[1].name']);
    const dup = expectError(await gw.post(PATHS.catalog, { store: { id: STORE }, items: [latte, latte] }), 422, 'validation_failed');
    expect(fieldPaths(dup)).toEqual(['items[1].externalId']);
    expectError(await gw.post(PATHS.catalog, { store: { id: STORE }, items: {} }), 422, 'validation_failed');
  });

  it('the same snapshot sent concurrently (a retry overlapping the first call): one creates, the others find it done, never a 500 on PostgreSQL', async () => {
    const items = Array.from({ length: 200 }, (_, i) => ({ externalId: `conc-${i}`, name: `Item ${i}`, isActive: true }));
    const answers = await Promise.all(Array.from({ length: 4 }, () => gw.post(PATHS.catalog, { store: { id: STORE }, items })));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200]);
    expect(answers.map((a) => CatalogSyncResult.parse(a.json()).itemsCreated).sort((a, b) => b - a)).toEqual([200, 0, 0, 0]);
    const emptied = await Promise.all(Array.from({ length: 3 }, () => gw.post(PATHS.catalog, { store: { id: STORE }, items: [] })));
    const deactivated = emptied.map((a) => CatalogSyncResult.parse(expectOk(a)).itemsDeactivated).sort((a, b) => b - a);
    expect(deactivated[1]).toBe(0);
    expect(deactivated[2]).toBe(0);
    expect(deactivated[0]).toBeGreaterThanOrEqual(200);
  });
});
