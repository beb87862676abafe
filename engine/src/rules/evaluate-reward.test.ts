import { describe, expect, it } from 'vitest';
import { evaluateReward, type MemberHoldings } from './evaluate-reward.js';
import type { RewardRule } from './reward-rule.js';

const base: RewardRule = {
  id: 'r',
  type: 'POINTS',
  title: 't',
  pointsCost: 500,
  discountMinor: 500,
  minSpendMinor: null,
  stampsRequired: null,
  minPoints: null,
  skus: new Set(),
  keywords: [],
};
const holdings = (extra: Partial<MemberHoldings> = {}): MemberHoldings => ({
  balance: 320,
  lifetimePoints: 900,
  instances: new Map(),
  stamps: new Map(),
  ...extra,
});

describe('evaluateReward', () => {
  it('POINTS: says how many points are short', () => {
    expect(evaluateReward(base, holdings(), undefined, 'USD')).toEqual({
      eligible: false,
      code: 'insufficient_points',
      reason: 'Needs 500 points; customer has 320 (180 short).',
    });
    expect(evaluateReward(base, holdings({ balance: 500 }), undefined, 'USD')).toEqual({ eligible: true, reason: null });
  });

  it('minimum spend: how much more, in the merchant currency; order value needed when absent', () => {
    const reward = { ...base, pointsCost: 0, minSpendMinor: 5000 };
    expect(evaluateReward(reward, holdings(), 3750, 'USD').reason).toBe('Spend $12.50 more to use this reward (minimum $50.00).');
    expect(evaluateReward(reward, holdings(), 3750, 'EUR').reason).toBe('Spend €12.50 more to use this reward (minimum €50.00).');
    expect(evaluateReward(reward, holdings(), undefined, 'USD')).toMatchObject({ eligible: false, code: 'minimum_spend_not_met' });
    expect(evaluateReward(reward, holdings(), 5000, 'USD').eligible).toBe(true);
  });

  it('STAMP: card progress until a completed card is held', () => {
    const stamp = { ...base, type: 'STAMP' as const, pointsCost: null, stampsRequired: 5 };
    expect(evaluateReward(stamp, holdings({ stamps: new Map([['r', { total: 8, available: 0 }]]) }), undefined, 'USD').reason).toBe(
      'Stamp card 3 of 5.',
    );
    expect(evaluateReward(stamp, holdings({ stamps: new Map([['r', { total: 8, available: 1 }]]) }), undefined, 'USD').eligible).toBe(true);
  });

  it('DISCOUNT / FREE_ITEM: issued and unused, else which code was used', () => {
    const discount = { ...base, type: 'DISCOUNT' as const, pointsCost: null };
    expect(evaluateReward(discount, holdings(), undefined, 'USD').reason).toBe('This reward has not been issued to this customer.');
    expect(
      evaluateReward(discount, holdings({ instances: new Map([['r', { available: 0, usedCodes: ['LOYAL-7QX2'] }]]) }), undefined, 'USD')
        .reason,
    ).toBe('Code LOYAL-7QX2 already used.');
  });

  it('TIER: lifetime points against the threshold', () => {
    const tier = { ...base, type: 'TIER' as const, pointsCost: null, minPoints: 1000 };
    expect(evaluateReward(tier, holdings(), undefined, 'USD').reason).toBe(
      'Tier reached at 1000 lifetime points; customer has 900 (100 short).',
    );
    expect(evaluateReward(tier, holdings({ lifetimePoints: 1000, balance: 0 }), undefined, 'USD').eligible).toBe(true);
  });
});
