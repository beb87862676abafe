import { toMinorUnits } from '@loyalty-gateway/core';
import { describe, expect, it } from 'vitest';
import { centsToAmount, positiveAmount } from './cents.js';
import { lineQuantity, toItems } from './map-items.js';

describe('money: Clover cents → canonical decimals, exactly', () => {
  it('converts minor units through core helpers (1999 → 19.99, 7 → 0.07) and round-trips', () => {
    expect(centsToAmount(1999)).toBe(19.99);
    expect(centsToAmount(7)).toBe(0.07);
    expect(centsToAmount(10)).toBe(0.1);
    expect(toMinorUnits(centsToAmount(1999) ?? NaN)).toBe(1999);
    expect(toMinorUnits(centsToAmount(7) ?? NaN)).toBe(7);
  });

  it('refuses what is not a whole number of cents, and "not > 0" for positives', () => {
    expect(centsToAmount(19.5)).toBeNull();
    expect(centsToAmount(undefined)).toBeNull();
    expect(positiveAmount(0)).toBeNull();
    expect(positiveAmount(-500)).toBeNull();
    expect(positiveAmount(1)).toBe(0.01);
  });
});

describe('lineQuantity: unitQty is fixed-point, scale 1000', () => {
  it('is 1 at the price without unitQty (Clover repeats lines for quantity)', () => {
    expect(lineQuantity(1999, undefined)).toEqual({ quantity: 1, unitPriceCents: 1999 });
    expect(lineQuantity(1999, null)).toEqual({ quantity: 1, unitPriceCents: 1999 });
  });

  it('keeps whole quantities (2000 → 2 at the unit price)', () => {
    expect(lineQuantity(399, 2000)).toEqual({ quantity: 2, unitPriceCents: 399 });
    expect(lineQuantity(399, 1000)).toEqual({ quantity: 1, unitPriceCents: 399 });
  });

  it('turns a weighed quantity into one line priced at the line total (half-up on cents)', () => {
    expect(lineQuantity(399, 1250)).toEqual({ quantity: 1, unitPriceCents: 499 }); // 498.75
    expect(lineQuantity(333, 1500)).toEqual({ quantity: 1, unitPriceCents: 500 }); // 499.5
    expect(lineQuantity(99, 12250)).toEqual({ quantity: 1, unitPriceCents: 1213 }); // 1212.75
  });

  it('refuses a zero, negative or non-integer unitQty', () => {
    expect(lineQuantity(399, 0)).toBeNull();
    expect(lineQuantity(399, -1000)).toBeNull();
    expect(lineQuantity(399, 1.5)).toBeNull();
  });
});

describe('toItems', () => {
  it('maps lines, leaving out free, exchanged and unusable ones', () => {
    expect(
      toItems([
        { id: 'L1', item: { id: 'ITEM1' }, name: ' Latte ', price: 450, itemCode: 'UPC-1' },
        { id: 'L2', name: 'Custom amount', price: 1999 },
        { id: 'L3', item: { id: 'ITEM3' }, name: 'Ground beef', price: 599, unitQty: 1500, unitName: 'lb' },
        { id: 'L4', item: { id: 'ITEM4' }, name: 'Eggs', price: 7, unitQty: 3000 },
        { id: 'L5', name: 'Free refill', price: 0 },
        { id: 'L6', name: 'Comp', price: -100 },
        { id: 'L7', name: 'Swapped', price: 450, exchanged: true },
        { id: 'L8', name: 'No price' },
        { id: 'L9', alternateName: 'Alt only', price: 100 },
      ]),
    ).toEqual([
      { id: 'ITEM1', name: 'Latte', sku: 'UPC-1', quantity: 1, unitPrice: 4.5 },
      { id: 'L2', name: 'Custom amount', quantity: 1, unitPrice: 19.99 },
      { id: 'ITEM3', name: 'Ground beef', quantity: 1, unitPrice: 8.99 }, // 1.5 lb × 5.99 = 8.985 → 8.99
      { id: 'ITEM4', name: 'Eggs', quantity: 3, unitPrice: 0.07 },
      { id: 'L9', name: 'Alt only', quantity: 1, unitPrice: 1 },
    ]);
  });

  it('truncates names to the spec limit', () => {
    const [item] = toItems([{ name: 'x'.repeat(300), price: 100 }]);
    expect(item?.name).toHaveLength(255);
  });
});
