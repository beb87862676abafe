import { EligibilityResult, type CustomerIdentifier } from '@loyalty-gateway/core';
import { describe, expect, it } from 'vitest';
import { ANN, BOB, IDS, SCOPE, line, sale } from '../testing/fixture.js';
import type { ContractContext } from './contract-harness.js';

export function eligibilityContract(t: ContractContext): void {
  const check = (customer: CustomerIdentifier, orderValueMinor?: number) =>
    t.engine.eligibility({ ...SCOPE, customer, ...(orderValueMinor === undefined ? {} : { orderValueMinor }) });
  const byId = (result: EligibilityResult) => Object.fromEntries(result.eligibleRewards.map((r) => [r.rewardId, r]));

  describe('eligibility', () => {
    it('lists every reward with type, cost, value and eligibility; valid against the schema', async () => {
      const result = await check(ANN, 6000);
      expect(EligibilityResult.parse(result)).toEqual(result);
      expect(result).toMatchObject({ membershipId: 'MBR-0001', walletBalance: 1200, redemptionRate: 100, warning: null });
      expect(result.eligibleRewards.map((r) => r.rewardId)).toEqual([IDS.stamp, IDS.points, IDS.discount, IDS.freeItem, IDS.tier]);
      const r = byId(result);
      expect(r[IDS.stamp]).toEqual({
        rewardId: IDS.stamp,
        title: 'Buy 5 coffees, get one free',
        type: 'STAMP',
        pointsCost: null,
        discountValue: null,
        eligible: false,
        reason: 'Stamp card 0 of 5.',
      });
      expect(r[IDS.points]).toMatchObject({ type: 'POINTS', pointsCost: 500, discountValue: 5, eligible: true, reason: null });
      expect(r[IDS.discount]).toMatchObject({ type: 'DISCOUNT', pointsCost: null, discountValue: 10, eligible: true });
      expect(r[IDS.tier]).toMatchObject({ type: 'TIER', eligible: false });
    });

    it('gives a cashier reason for points short, minimum spend, stamp progress and a used code', async () => {
      await t.engine.earn(sale({ items: [line('Coffee', 3)], discountCodes: [{ code: 'LOYAL-7QX2' }] }));
      expect(byId(await check(BOB, 3750))[IDS.points]!.reason).toBe('Needs 500 points; customer has 0 (500 short).');
      const ann = byId(await check(ANN, 3750));
      expect(ann[IDS.stamp]!.reason).toBe('Stamp card 3 of 5.');
      expect(ann[IDS.discount]!.reason).toBe('Code LOYAL-7QX2 already used.');
      const bob = byId(await check(BOB, 3750));
      expect(bob[IDS.discount]).toMatchObject({ eligible: false });
    });

    it('explains a minimum spend not met, or not checkable without an order value', async () => {
      expect(byId(await check(ANN, 3750))[IDS.discount]!.reason).toBe('Spend $12.50 more to use this reward (minimum $50.00).');
      expect(byId(await check(ANN))[IDS.discount]).toMatchObject({
        eligible: false,
        reason: 'Order value needed to check the minimum spend of $50.00.',
      });
    });

    it('a non-member is an answer, not an error: empty membershipId, no rewards, a warning', async () => {
      const result = await check({ type: 'email', value: 'stranger@example.com' });
      expect(result).toMatchObject({ membershipId: '', walletBalance: 0, eligibleRewards: [], redemptionRate: 100 });
      expect(result.warning).toMatch(/not found/);
    });

    it('is read-only: asking twice changes nothing', async () => {
      const first = await check(ANN, 6000);
      expect(await check(ANN, 6000)).toEqual(first);
      expect(await t.balance(ANN)).toBe(1200);
    });
  });
}
