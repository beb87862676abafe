import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseRate, pointsFor, proportion, rateToText } from './earn-rate.js';

describe('earn rate', () => {
  it('parses decimals exactly', () => {
    expect(parseRate(1)).toEqual({ numerator: 1n, denominator: 1n });
    expect(parseRate(1.5)).toEqual({ numerator: 15n, denominator: 10n });
    expect(parseRate(0.1)).toEqual({ numerator: 1n, denominator: 10n });
    expect(parseRate(1e-7)).toEqual({ numerator: 1n, denominator: 10_000_000n });
    expect(parseRate('2.25')).toEqual({ numerator: 225n, denominator: 100n });
    expect(() => parseRate('-1')).toThrow();
  });

  it('round-trips through its stored text', () => {
    for (const rate of [1, 1.5, 0.1, 0.05, 10, 2.125]) expect(Number(rateToText(parseRate(rate)))).toBe(rate);
    expect(rateToText(parseRate(0.1))).toBe('0.1');
  });

  it('floors total × rate without float error', () => {
    expect(pointsFor(1999, parseRate(1.5))).toBe(29); // 29.985
    expect(pointsFor(1000, parseRate(0.1))).toBe(1);
    expect(pointsFor(30, parseRate(0.1))).toBe(0);
    expect(pointsFor(1010, parseRate(1.1))).toBe(11); // 11.11; floats say 1010*1.1/100 = 11.110000000000001
    expect(pointsFor(700, parseRate(0.07 * 100))).toBe(49); // rate 7.000000000000001 stays tiny-over, still 49
    expect(pointsFor(9_007_199_254_740_991, parseRate(3))).toBe(270_215_977_642_229);
  });

  it('agrees with exact rational arithmetic for any total and rate with ≤ 4 decimals', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000_000_000 }), fc.integer({ min: 1, max: 1_000_000 }), (total, rate4) => {
        const rate = rate4 / 10_000;
        return pointsFor(total, parseRate(rate)) === Number((BigInt(total) * BigInt(rate4)) / 1_000_000n);
      }),
    );
  });

  it('proportional reversal targets never exceed earned and reach it at the total', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.array(fc.integer({ min: 1, max: 500_000 })),
        (earned, total, refunds) => {
          let cumulative = 0;
          let reversed = 0;
          for (const amount of refunds) {
            cumulative = Math.min(cumulative + amount, total);
            const target = cumulative >= total ? earned : proportion(earned, cumulative, total);
            if (target < reversed) return false;
            reversed = target;
          }
          return reversed <= earned && (cumulative < total || reversed === earned);
        },
      ),
    );
  });
});
