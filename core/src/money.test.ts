import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_MONEY, NonNegativeMoney, PositiveMoney, decimalToMinor, fromMinorUnits, toMinorUnits } from './money.js';

describe('toMinorUnits', () => {
  it.each([
    [19.99, 1999],
    [0.07, 7],
    [0.01, 1],
    [1, 100],
    [1234567.89, 123456789],
  ])('%d is %d minor units', (amount, minor) => {
    expect(toMinorUnits(amount)).toBe(minor);
  });

  it.each([10.005, 0.001, 1.999, Number.NaN, Number.POSITIVE_INFINITY, 1e300, 0.1 + 0.2])('rejects %d', (amount) => {
    expect(toMinorUnits(amount)).toBeNull();
  });

  it('round-trips every two-decimal amount written as a JSON literal', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000_000 }), (cents) => {
        const literal = `${Math.trunc(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
        const parsed = JSON.parse(literal) as number;
        expect(toMinorUnits(parsed)).toBe(cents);
        expect(fromMinorUnits(cents)).toBe(parsed);
      }),
    );
  });

  it('rejects every amount with a third decimal place', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1_000_000_000 }), fc.integer({ min: 1, max: 9 }), (cents, third) => {
        const literal = `${Math.trunc(cents / 100)}.${String(cents % 100).padStart(2, '0')}${third}`;
        expect(toMinorUnits(JSON.parse(literal) as number)).toBeNull();
      }),
    );
  });
});

describe('money schemas', () => {
  it('PositiveMoney accepts > 0 multiples of 0.01 only', () => {
    expect(PositiveMoney.safeParse(19.99).success).toBe(true);
    expect(PositiveMoney.safeParse(0.07).success).toBe(true);
    expect(PositiveMoney.safeParse(0).success).toBe(false);
    expect(PositiveMoney.safeParse(-1).success).toBe(false);
    expect(PositiveMoney.safeParse(10.005).success).toBe(false);
    expect(PositiveMoney.safeParse('19.99').success).toBe(false);
  });

  it('NonNegativeMoney accepts 0 (discount amounts)', () => {
    expect(NonNegativeMoney.safeParse(0).success).toBe(true);
    expect(NonNegativeMoney.safeParse(-0.01).success).toBe(false);
    expect(NonNegativeMoney.safeParse(2.5).success).toBe(true);
  });
});

describe('money messages', () => {
  const message = (schema: typeof PositiveMoney, value: unknown) => schema.safeParse(value).error?.issues.map((i) => i.message);

  it('90071992547409.92 and 1e300 are too large, and the message says the largest amount accepted (not "must be a multiple of 0.01")', () => {
    for (const value of [90071992547409.92, 1e300, 1_000_000_000_000, 999_999_999_999.999]) {
      expect(message(PositiveMoney, value), String(value)).toEqual(['must be at most 999,999,999,999.99']);
      expect(message(NonNegativeMoney, value), String(value)).toEqual(['must be at most 999,999,999,999.99']);
    }
    expect(PositiveMoney.safeParse(MAX_MONEY).success).toBe(true);
    expect(MAX_MONEY).toBe(999_999_999_999.99);
  });

  it('each value gets the one message that explains it', () => {
    expect(message(PositiveMoney, 10.005)).toEqual(['must be a multiple of 0.01 (at most 2 decimal places)']);
    expect(message(PositiveMoney, 0)).toEqual(['must be greater than 0']);
    expect(message(PositiveMoney, -1e300)).toEqual(['must be greater than 0']);
    expect(message(PositiveMoney, -1.005)).toEqual(['must be greater than 0']);
    expect(message(NonNegativeMoney, -0.01)).toEqual(['must be at least 0']);
    expect(NonNegativeMoney.safeParse(0).success).toBe(true);
  });

  it('below the maximum the check is exact on the literal: every two-decimal literal passes, every three-decimal one fails', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 99_999_999_999_999n }), fc.integer({ min: 1, max: 9 }), (cents, third) => {
        const literal = `${cents / 100n}.${String(cents % 100n).padStart(2, '0')}`;
        expect(toMinorUnits(JSON.parse(literal) as number)).toBe(Number(cents));
        expect(toMinorUnits(JSON.parse(`${literal}${third}`) as number)).toBeNull();
      }),
      { numRuns: 20_000 },
    );
  });

  it('a value is judged by the number JSON.parse produces (documented): 12.50000000000000001 is 12.5', () => {
    expect(PositiveMoney.safeParse(JSON.parse('12.50000000000000001')).success).toBe(true);
  });
});

describe("decimalToMinor: a vendor's decimal text, exactly, or null", () => {
  it('reads plain decimals and JSON numbers, negative ones too (WooCommerce refund totals)', () => {
    expect(decimalToMinor('29.35')).toBe(2935);
    expect(decimalToMinor('-10.00')).toBe(-1000);
    expect(decimalToMinor(' 10.000 ')).toBe(1000);
    expect(decimalToMinor(89.99)).toBe(8999);
  });

  it('refuses what is not a plain two-decimal amount rather than rounding it', () => {
    for (const value of ['', '1e3', '1.234', '12,50', 'NaN', null, undefined]) expect(decimalToMinor(value)).toBeNull();
  });
});
