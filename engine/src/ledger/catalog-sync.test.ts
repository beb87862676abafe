import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CatalogSyncCommand } from '@loyalty-gateway/core';
import { testDialects } from '@loyalty-gateway/storage/testing';
import { SCOPE, openSeededEngine, type TestEngine } from '../testing/fixture.js';

type Item = CatalogSyncCommand['items'][number];
const latte: Item = { externalId: 'p-1', name: 'Latte', sku: 'COF-LATTE', category: 'Coffee', priceMinor: 450, isActive: true };
const muffin: Item = { externalId: 'p-2', name: 'Muffin', priceMinor: 300, isActive: true };
const tea: Item = { externalId: 'p-3', name: 'Tea', isActive: false };

describe.each(testDialects())('catalogSync on $name', ({ name }) => {
  let t: TestEngine;
  beforeEach(async () => {
    t = await openSeededEngine(name);
  });
  afterEach(async () => {
    await t.close();
  });

  const sync = (items: Item[], outletId = SCOPE.outletId) => t.engine.catalogSync({ ...SCOPE, outletId, items });
  const rows = () =>
    t.db.selectFrom('catalog_items').select(['external_id', 'name', 'is_active', 'updated_at']).orderBy('external_id').execute();

  it('creates, leaves unchanged items alone, updates changed ones and deactivates absent ones', async () => {
    expect(await sync([latte, muffin, tea])).toEqual({
      status: 'synced',
      itemsReceived: 3,
      itemsCreated: 3,
      itemsUpdated: 0,
      itemsDeactivated: 0,
    });
    const before = await rows();
    expect(await sync([latte, muffin, tea])).toEqual({
      status: 'synced',
      itemsReceived: 3,
      itemsCreated: 0,
      itemsUpdated: 0,
      itemsDeactivated: 0,
    });
    expect(await rows()).toEqual(before);
    expect(await sync([{ ...latte, priceMinor: 475 }, tea])).toEqual({
      status: 'synced',
      itemsReceived: 2,
      itemsCreated: 0,
      itemsUpdated: 1,
      itemsDeactivated: 1,
    });
    expect((await rows()).map((r) => [r.external_id, Number(r.is_active)])).toEqual([
      ['p-1', 1],
      ['p-2', 0],
      ['p-3', 0],
    ]);
  });

  it('never deletes, and does not count an already inactive absent item again', async () => {
    await sync([latte, muffin]);
    expect((await sync([latte])).itemsDeactivated).toBe(1);
    expect((await sync([latte])).itemsDeactivated).toBe(0);
    expect(await sync([])).toMatchObject({ itemsReceived: 0, itemsDeactivated: 1 });
    expect(await rows()).toHaveLength(2);
    expect(await sync([muffin])).toMatchObject({ itemsCreated: 0, itemsUpdated: 1 });
  });

  it('counts an item sent with isActive false that was active as updated, not deactivated', async () => {
    await sync([latte]);
    expect(await sync([{ ...latte, isActive: false }])).toMatchObject({ itemsUpdated: 1, itemsDeactivated: 0 });
  });

  it("keeps each outlet's snapshot separate", async () => {
    await sync([latte, muffin]);
    expect(await sync([tea], 'o-uptown')).toMatchObject({ itemsCreated: 1, itemsDeactivated: 0 });
    expect(await rows()).toHaveLength(3);
  });

  it('rejects duplicate externalIds in one snapshot (422, pointing at the duplicate) and writes nothing', async () => {
    await expect(sync([latte, muffin, { ...latte, name: 'Other' }])).rejects.toMatchObject({
      code: 'validation_failed',
      statusCode: 422,
      fields: [{ path: 'items[2].externalId', message: expect.stringContaining('items[0]') }],
    });
    expect(await rows()).toHaveLength(0);
  });

  it('handles a large snapshot in one go', async () => {
    const items = Array.from({ length: 1200 }, (_, i) => ({ externalId: `x-${i}`, name: `Item ${i}`, isActive: true }));
    expect(await sync(items)).toMatchObject({ itemsCreated: 1200 });
    expect(await sync(items.slice(0, 600))).toMatchObject({ itemsCreated: 0, itemsUpdated: 0, itemsDeactivated: 600 });
  });

  it('concurrent identical syncs (PostgreSQL) run one at a time per outlet: no unique violation, deactivations counted once', async () => {
    const items = Array.from({ length: 300 }, (_, i) => ({ externalId: `c-${i}`, name: `Item ${i}`, isActive: true }));
    const created = await Promise.all(Array.from({ length: 4 }, () => sync(items)));
    expect(created.map((r) => r.itemsCreated).sort((a, b) => b - a)).toEqual([300, 0, 0, 0]);
    expect(created.every((r) => r.itemsUpdated === 0 && r.itemsDeactivated === 0)).toBe(true);
    const emptied = await Promise.all(Array.from({ length: 3 }, () => sync([])));
    expect(emptied.map((r) => r.itemsDeactivated).sort((a, b) => b - a)).toEqual([300, 0, 0]);
    expect(await rows()).toHaveLength(300);
    // another outlet is not held up by, nor counted with, this one
    const [here, there] = await Promise.all([sync(items), sync(items.slice(0, 10), 'o-uptown')]);
    expect([here.itemsUpdated, there.itemsCreated]).toEqual([300, 10]);
  });
});
