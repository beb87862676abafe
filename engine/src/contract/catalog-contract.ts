import type { CatalogSyncCommand } from '@loyalty-gateway/core';
import { describe, expect, it } from 'vitest';
import { SCOPE } from '../testing/fixture.js';
import { expectEngineError, type ContractContext } from './contract-harness.js';

type Item = CatalogSyncCommand['items'][number];
const latte: Item = { externalId: 'p-1', name: 'Latte', sku: 'COF-LATTE', category: 'Coffee', priceMinor: 450, isActive: true };
const muffin: Item = { externalId: 'p-2', name: 'Muffin', priceMinor: 300, isActive: true };
const tea: Item = { externalId: 'p-3', name: 'Tea', isActive: false };

export function catalogContract(t: ContractContext): void {
  const sync = (items: Item[], outletId = SCOPE.outletId) => t.engine.catalogSync({ ...SCOPE, outletId, items });

  describe('catalogSync', () => {
    it('counts created, unchanged (not updated), updated and deactivated items exactly', async () => {
      expect(await sync([latte, muffin, tea])).toEqual({
        status: 'synced',
        itemsReceived: 3,
        itemsCreated: 3,
        itemsUpdated: 0,
        itemsDeactivated: 0,
      });
      expect(await sync([latte, muffin, tea])).toEqual({
        status: 'synced',
        itemsReceived: 3,
        itemsCreated: 0,
        itemsUpdated: 0,
        itemsDeactivated: 0,
      });
      expect(await sync([{ ...latte, priceMinor: 475 }, tea])).toEqual({
        status: 'synced',
        itemsReceived: 2,
        itemsCreated: 0,
        itemsUpdated: 1,
        itemsDeactivated: 1,
      });
    });

    it('never deletes: an absent item is deactivated once and comes back as an update', async () => {
      await sync([latte, muffin]);
      expect((await sync([latte])).itemsDeactivated).toBe(1);
      expect((await sync([latte])).itemsDeactivated).toBe(0);
      expect(await sync([latte, muffin])).toMatchObject({ itemsCreated: 0, itemsUpdated: 1 });
    });

    it("keeps each outlet's snapshot separate", async () => {
      await sync([latte, muffin]);
      expect(await sync([tea], 'o-uptown')).toMatchObject({ itemsCreated: 1, itemsDeactivated: 0 });
    });

    it('refuses duplicate externalIds in one snapshot (422, naming the field) and writes nothing', async () => {
      const error = await expectEngineError(sync([latte, muffin, { ...latte, name: 'Other' }]), 'validation_failed', 422, 'coded');
      expect(error.fields).toEqual([{ path: 'items[2].externalId', message: expect.stringContaining('items[0]') }]);
      expect(await sync([latte])).toMatchObject({ itemsCreated: 1 });
    });
  });
}
