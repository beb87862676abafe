import { z } from 'zod';
import { groupDigits } from './number-text.js';

/**
 * Money crosses the JSON edge as a decimal number with at most two decimal places and lives
 * everywhere else as an integer count of minor units (cents).
 *
 * `toMinorUnits` is exact for every number a JSON parser can produce from a two-decimal literal:
 * the nearest double to `n/100` is the double the parser produced for that literal, so the
 * round-trip `Math.round(x * 100) / 100 === x` accepts 19.99 and 0.07 and rejects 10.005.
 */
export function toMinorUnits(amount: number): number | null {
  if (!Number.isFinite(amount)) return null;
  const minor = Math.round(amount * 100);
  if (!Number.isSafeInteger(minor) || minor / 100 !== amount) return null;
  return minor;
}

/** Minor units back to the decimal number the JSON edge shows (1999 → 19.99). */
export function fromMinorUnits(minor: number): number {
  return minor / 100;
}

const DECIMAL_TEXT = /^-?\d+(\.\d+)?$/;

/**
 * A vendor's decimal amount ("19.99", "-10.00", "10.000", or a JSON number) in integer minor units,
 * exactly: the text must be a plain decimal and its value a multiple of 0.01. Null for anything
 * else ("", "1e3", "1.234"), so an adapter never rounds money it cannot represent.
 */
export function decimalToMinor(value: string | number | null | undefined): number | null {
  if (typeof value === 'number') return toMinorUnits(value);
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  return DECIMAL_TEXT.test(trimmed) ? toMinorUnits(Number(trimmed)) : null;
}

export const isTwoDecimalAmount = (amount: number): boolean => toMinorUnits(amount) !== null;

/**
 * The largest money amount accepted: 999,999,999,999.99. Below 10^12 doubles are at most 1/8192
 * apart, so every literal with two decimals parses to a double that round-trips to its cents and
 * one with a third decimal never lands on a two-decimal double: the check above is exact on the
 * literal. Beyond it, it is not (from 10^12, `X.001` can parse to the same double as `X.00`; from
 * 2^45, valid two-decimal amounts stop round-tripping).
 */
export const MAX_MONEY = 999_999_999_999.99;

const MONEY_MESSAGES = {
  tooLarge: `must be at most ${groupDigits(MAX_MONEY, 2)}`,
  precision: 'must be a multiple of 0.01 (at most 2 decimal places)',
};

/** A money amount: one message per value, the one that explains it (sign, then size, then precision). */
function money(floor: { test: (n: number) => boolean; message: string }) {
  return z.number().check((ctx) => {
    const n = ctx.value;
    const message = !floor.test(n)
      ? floor.message
      : n > MAX_MONEY
        ? MONEY_MESSAGES.tooLarge
        : isTwoDecimalAmount(n)
          ? null
          : MONEY_MESSAGES.precision;
    if (message !== null) ctx.issues.push({ code: 'custom', message, input: n });
  });
}

/** A money amount greater than 0, at most MAX_MONEY and a multiple of 0.01. */
export const PositiveMoney = money({ test: (n) => n > 0, message: 'must be greater than 0' });

/** A money amount of at least 0, at most MAX_MONEY and a multiple of 0.01 (discount amounts). */
export const NonNegativeMoney = money({ test: (n) => n >= 0, message: 'must be at least 0' });
