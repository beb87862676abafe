import { fromMinorUnits } from '@loyalty-gateway/core';

/**
 * Shopify amounts ("19.99", "10.000", or a JSON number such as 89.99) in integer minor units,
 * exactly, or null: core's `decimalToMinor`, the one every adapter uses.
 */
export { decimalToMinor } from '@loyalty-gateway/core';

/** Minor units back to the canonical JSON number (1999 → 19.99). */
export const minorToAmount = fromMinorUnits;
