import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_MONEY } from './money.js';
import { groupDigits } from './number-text.js';

describe('groupDigits', () => {
  it.each([
    [0, 0, '0'],
    [7, 0, '7'],
    [999, 0, '999'],
    [1000, 0, '1,000'],
    [79_999, 0, '79,999'],
    [-1_234_567, 0, '-1,234,567'],
    [Number.MAX_SAFE_INTEGER, 0, '9,007,199,254,740,991'],
    [MAX_MONEY, 2, '999,999,999,999.99'],
    [0.5, 2, '0.50'],
  ])('%d with %d decimals is %s', (value, digits, text) => {
    expect(groupDigits(value, digits)).toBe(text);
  });

  it("is what toLocaleString('en-US') writes, for whole numbers and two-decimal amounts", () => {
    fc.assert(
      fc.property(fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }), (n) => {
        expect(groupDigits(n)).toBe(n.toLocaleString('en-US'));
      }),
    );
    fc.assert(
      fc.property(fc.integer({ min: -99_999_999_999_999, max: 99_999_999_999_999 }), (cents) => {
        const amount = cents / 100;
        expect(groupDigits(amount, 2)).toBe(amount.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }));
      }),
    );
  });
});
