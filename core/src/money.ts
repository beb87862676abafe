import { z } from 'zod';

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

export const isTwoDecimalAmount = (amount: number): boolean => toMinorUnits(amount) !== null;

const moneyBase = z
  .number()
  .refine(isTwoDecimalAmount, { message: 'must be a multiple of 0.01 (at most 2 decimal places)', abort: true });

/** A money amount greater than 0 and a multiple of 0.01. */
export const PositiveMoney = moneyBase.refine((n) => n > 0, { message: 'must be greater than 0' });

/** A money amount of at least 0 and a multiple of 0.01 (discount amounts). */
export const NonNegativeMoney = moneyBase.refine((n) => n >= 0, { message: 'must be at least 0' });
