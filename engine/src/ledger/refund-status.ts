/** A reversal given back (withdraw-refunds.ts): it no longer counts for its sale, and its id stays used. */
export const WITHDRAWN = 'WITHDRAWN';

/**
 * A vendor's ISO 8601 time as UTC with milliseconds (`2026-11-20T15:15:00.000Z`), the one form in
 * which the ledger's times compare as text on both dialects; null when it is missing or not a time.
 */
export function utcTime(value: string | undefined): string | null {
  if (value === undefined) return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}
