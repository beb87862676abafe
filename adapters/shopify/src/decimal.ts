import { fromMinorUnits, toMinorUnits } from '@loyalty-gateway/core';

const DECIMAL = /^-?\d+(\.\d+)?$/;

/**
 * A Shopify amount ("19.99", "10.000", or a JSON number such as 89.99) in integer minor units,
 * exactly: the decimal text is validated, then core's `toMinorUnits` accepts it only when it is
 * a multiple of 0.01. Null for anything else ("", "1e3", "1.234" of a 3-decimal currency).
 */
export function decimalToMinor(value: string | number | null | undefined): number | null {
  if (typeof value === 'number') return toMinorUnits(value);
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  if (!DECIMAL.test(trimmed)) return null;
  return toMinorUnits(Number(trimmed));
}

/** Minor units back to the canonical JSON number (1999 → 19.99). */
export const minorToAmount = fromMinorUnits;
