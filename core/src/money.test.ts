import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NonNegativeMoney, PositiveMoney, fromMinorUnits, toMinorUnits } from './money.js';

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

  it.each([10.005, 0.001, 1.999, Number.NaN, Number.POSITIVE_INFINITY, 1e300, 0.1 + 0.2])(
    'rejects %d',
    (amount) => {
      expect(toMinorUnits(amount)).toBeNull();
    },
  );

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
