import { toMinorUnits } from '@loyalty-gateway/core';

/**
 * A validated money amount (the schema already enforced the two-decimal rule, so the conversion is
 * exact) in minor units; undefined stays undefined (an optional amount that was not sent).
 */
export function toMinor(amount: number | undefined): number | undefined {
  if (amount === undefined) return undefined;
  const minor = toMinorUnits(amount);
  if (minor === null) throw new TypeError(`amount ${amount} passed validation but is not a two-decimal amount`);
  return minor;
}
