import { describe, expect, it } from 'vitest';
import type { RewardRule } from './reward-rule.js';
import { cardProgress, lineMatches, stampsForSale } from './stamps.js';

const reward = (id: string, skus: string[], keywords: string[]): RewardRule => ({
  id,
  type: 'STAMP',
  title: id,
  pointsCost: null,
  discountMinor: null,
  minSpendMinor: null,
  stampsRequired: 5,
  minPoints: null,
  skus: new Set(skus),
  keywords: keywords.map((k) => k.toLowerCase()),
});
const coffee = reward('coffee', ['COF-LATTE'], ['Coffee']);
const line = (name: string, quantity = 1, extra = {}) => ({ name, quantity, unitPriceMinor: 100, ...extra });
const none = new Map<string, string | null>();

describe('stamp matching', () => {
  it('matches by exact SKU, else by case-insensitive keyword in the name', () => {
    expect(lineMatches(line('Latte', 1, { sku: 'COF-LATTE' }), coffee, none)).toBe(true);
    expect(lineMatches(line('Latte', 1, { sku: 'cof-latte' }), coffee, none)).toBe(false);
    expect(lineMatches(line('Iced COFFEE large'), coffee, none)).toBe(true);
    expect(lineMatches(line('Tea'), coffee, none)).toBe(false);
  });

  it("inherits the SKU of the catalog item a line's id or sku names", () => {
    const catalog = new Map([
      ['prod-1', 'COF-LATTE'],
      ['prod-2', null],
    ]);
    expect(lineMatches(line('Item', 1, { id: 'prod-1' }), coffee, catalog)).toBe(true);
    expect(lineMatches(line('Item', 1, { sku: 'prod-1' }), coffee, catalog)).toBe(true);
    expect(lineMatches(line('Item', 1, { id: 'prod-2' }), coffee, catalog)).toBe(false);
  });

  it('sums quantities per reward and skips rewards without stamps', () => {
    const tea = reward('tea', [], ['tea']);
    const result = stampsForSale([line('Coffee', 2), line('Latte', 3, { sku: 'COF-LATTE' }), line('Cake')], [coffee, tea], none);
    expect(result.map((r) => [r.reward.id, r.stamps])).toEqual([['coffee', 5]]);
  });
});

describe('cardProgress', () => {
  it.each([
    [3, 3, 5, 3, 0],
    [5, 2, 5, 0, 1],
    [12, 12, 5, 2, 2],
    [14, 2, 5, 4, 0],
    [15, 1, 5, 0, 1],
    [11, 10, 5, 1, 2],
  ])('total %i after adding %i on a %i-card → current %i, completed %i', (total, added, required, current, completedNow) => {
    expect(cardProgress(total, added, required)).toEqual({ current, completedNow });
  });
});
