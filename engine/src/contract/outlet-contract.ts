import { describe, expect, it } from 'vitest';
import { SCOPE } from '../testing/fixture.js';
import type { ContractContext } from './contract-harness.js';

export function outletContract(t: ContractContext): void {
  describe('findOutlet', () => {
    it('says whether the merchant exists, and has the outlet (read-only)', async () => {
      expect(await t.engine.findOutlet({ merchantId: SCOPE.merchantId, outletId: SCOPE.outletId })).toEqual({
        merchant: true,
        outlet: true,
      });
      expect(await t.engine.findOutlet({ merchantId: SCOPE.merchantId, outletId: 'o-nowhere' })).toEqual({ merchant: true, outlet: false });
      expect(await t.engine.findOutlet({ merchantId: 'm-nobody', outletId: SCOPE.outletId })).toEqual({ merchant: false, outlet: false });
    });
  });

  describe('listMerchants', () => {
    it('lists every merchant with its outlets (what connections can be made to), ordered by id', async () => {
      const merchants = await t.engine.listMerchants();
      const bean = merchants.find((m) => m.id === SCOPE.merchantId);
      expect(bean).toEqual({
        id: 'm-bean',
        name: 'Bean There',
        currency: 'USD',
        outlets: expect.arrayContaining([{ id: 'o-downtown', name: 'Downtown' }]),
      });
      expect(merchants.map((m) => m.id)).toEqual([...merchants.map((m) => m.id)].sort());
    });
  });
}
