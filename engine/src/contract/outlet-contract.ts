import { describe, expect, it } from 'vitest';
import { SCOPE } from '../testing/fixture.js';
import type { ContractContext } from './contract-harness.js';

export function outletContract(t: ContractContext): void {
  describe('findOutlet', () => {
    it('says whether the merchant exists, and has the outlet (read-only)', async () => {
      expect(await t.engine.findOutlet({ merchantId: SCOPE.merchantId, outletId: SCOPE.outletId })).toEqual({ merchant: true, outlet: true });
      expect(await t.engine.findOutlet({ merchantId: SCOPE.merchantId, outletId: 'o-nowhere' })).toEqual({ merchant: true, outlet: false });
      expect(await t.engine.findOutlet({ merchantId: 'm-nobody', outletId: SCOPE.outletId })).toEqual({ merchant: false, outlet: false });
    });
  });
}
