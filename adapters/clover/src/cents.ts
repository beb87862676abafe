import { fromMinorUnits } from '@loyalty-gateway/core';

/**
 * Clover cents → the decimal the canonical envelope carries, via core's exact helper.
 * Anything that is not a whole number of cents (or missing) yields null: never guess money.
 */
export function centsToAmount(cents: number | null | undefined): number | null {
  if (typeof cents !== 'number' || !Number.isSafeInteger(cents)) return null;
  return fromMinorUnits(cents);
}

/** A positive amount, or null (free lines, zero totals and non-integer cents are all "not > 0"). */
export function positiveAmount(cents: number | null | undefined): number | null {
  const amount = centsToAmount(cents);
  return amount !== null && amount > 0 ? amount : null;
}

/** The last millisecond of year 9999: later times have no four-digit-year ISO 8601 form. */
const LAST_ISO_MS = 253_402_300_799_999;

/** Milliseconds since the epoch → ISO 8601 (UTC), or null when missing or outside years 1970–9999. */
export function msToIso(ms: number | null | undefined): string | null {
  if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0 || ms > LAST_ISO_MS) return null;
  return new Date(ms).toISOString();
}

/** `ms` when it has an ISO 8601 form (msToIso), else null. */
export const validMs = (ms: number | null | undefined): number | null => (msToIso(ms) === null ? null : (ms as number));

/** A time forced into the ISO 8601 range: a notification's `ts` may be any safe integer, far past year 9999. */
export const clampMs = (ms: number): number => (Number.isFinite(ms) ? Math.min(Math.max(ms, 0), LAST_ISO_MS) : 0);
