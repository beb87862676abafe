import { saleFingerprint } from '@loyalty-gateway/core';
import { describe, expect, it } from 'vitest';
import { ANN, IDS, SCOPE, line, sale, testSeed } from '../testing/fixture.js';
import { expectEngineError, type ContractContext } from './contract-harness.js';

const STAMP_TITLE = 'Buy 5 coffees, get one free';

export function earnContract(t: ContractContext): void {
  describe('earn', () => {
    it('processes a sale once: floor(total × rate) points, then duplicate for any retry', async () => {
      const command = sale({ totalMinor: 1299 });
      expect(await t.engine.earn(command)).toEqual({
        status: 'processed',
        membershipId: 'MBR-0001',
        pointsEarned: 12,
        stampsUpdated: [],
        warning: null,
        // What the gateway's cache remembers for the transaction id (it does not compute it again).
        fingerprint: saleFingerprint(command.transaction),
      });
      const again = await t.engine.earn({ ...command, eventId: 'another-event' });
      expect(again).toEqual({
        status: 'duplicate',
        membershipId: '',
        pointsEarned: 0,
        stampsUpdated: [],
        warning: null,
        fingerprint: saleFingerprint(command.transaction),
      });
      expect(await t.balance(ANN)).toBe(1212);
    });

    it('scopes the duplicate key to vendor and store', async () => {
      const command = sale();
      await t.engine.earn(command);
      const otherStore = await t.engine.earn({ ...command, source: { vendor: 'acme-pos', storeId: 'store-002' } });
      expect(otherStore.status).toBe('processed');
      expect(await t.balance(ANN)).toBe(1224);
    });

    it('records a walk-in sale with a warning and no points, and dedupes it', async () => {
      const command = sale({ customer: undefined, items: [line('Coffee', 5)] });
      const result = await t.engine.earn(command);
      expect(result).toMatchObject({ status: 'processed', membershipId: '', pointsEarned: 0, stampsUpdated: [] });
      expect(result.warning).toMatch(/walk-in/i);
      expect((await t.engine.earn(command)).status).toBe('duplicate');
    });

    it("accepts a non-member's sale with a warning and awards nothing", async () => {
      const result = await t.engine.earn(sale({ customer: { type: 'phone', value: '+1 555 010 9999' } }));
      expect(result).toMatchObject({ status: 'processed', membershipId: '', pointsEarned: 0, stampsUpdated: [] });
      expect(result.warning).toContain('Customer not found');
    });

    it('resolves a member by phone, email and external id', async () => {
      for (const customer of [
        { type: 'phone', value: '+1 (555) 010-0001' },
        { type: 'email', value: ' ANN@example.com' },
        { type: 'externalId', value: 'crm-1' },
      ] as const) {
        expect((await t.engine.earn(sale({ customer }))).membershipId).toBe('MBR-0001');
      }
    });

    it('counts stamps from matching lines and completes a card with the overflow', async () => {
      const first = await t.engine.earn(
        sale({ items: [line('Latte', 2, { sku: 'COF-LATTE' }), line('Iced coffee', 1), line('Muffin', 1)] }),
      );
      expect(first.stampsUpdated).toEqual([{ rewardId: IDS.stamp, rewardTitle: STAMP_TITLE, current: 3, required: 5, completed: false }]);
      const second = await t.engine.earn(sale({ items: [line('Coffee', 3)] }));
      expect(second.stampsUpdated).toEqual([{ rewardId: IDS.stamp, rewardTitle: STAMP_TITLE, current: 1, required: 5, completed: true }]);
    });

    it('uses exact integer arithmetic for a fractional earn rate and warns below one point', async () => {
      const seed = testSeed();
      const merchant = { ...seed.merchants[0]!, id: 'm-frac', earnRate: 1.5, rewards: [], issuedCodes: [] };
      await t.engine.applySeed({ merchants: [merchant] });
      const scope = { ...SCOPE, merchantId: 'm-frac' };
      expect((await t.engine.earn(sale({ totalMinor: 1999 }, scope))).pointsEarned).toBe(29);
      expect((await t.engine.earn(sale({ totalMinor: 999_999_999_99 }, scope))).pointsEarned).toBe(1_499_999_999);
      const tiny = await t.engine.earn(sale({ totalMinor: 50 }, scope));
      expect(tiny).toMatchObject({ status: 'processed', membershipId: 'MBR-0001', pointsEarned: 0 });
      expect(tiny.warning).toMatch(/below one point/);
    });

    it('refuses an unknown merchant with EngineError internal_error (a configuration fault)', async () => {
      await expectEngineError(t.engine.earn({ ...sale(), merchantId: 'm-nope' }), 'internal_error', 500);
    });
  });
}
