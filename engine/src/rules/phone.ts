const SEPARATORS = /[\s\-().]/g;
const E164 = /^\+[1-9]\d{7,14}$/;

/**
 * Normalise a phone number to E.164 (`+` and 8–15 digits), ignoring spaces, dashes, dots and
 * parentheses. A bare local number (no `+`) is completed with the merchant's default country code
 * after stripping one leading trunk `0`. A number written with its country code but without the
 * `+` is treated as local, so it does not match: the spec says never to send that form.
 * Returns null when the value cannot be a phone number.
 */
export function normalizePhone(raw: string, defaultCountryCode: string): string | null {
  const compact = raw.replace(SEPARATORS, '');
  if (compact.startsWith('+')) return E164.test(compact) ? compact : null;
  if (!/^\d+$/.test(compact)) return null;
  const local = compact.startsWith('0') ? compact.slice(1) : compact;
  const candidate = `+${defaultCountryCode}${local}`;
  return E164.test(candidate) ? candidate : null;
}

/** Email lookup form: trimmed and lower-cased. */
export const normalizeEmail = (raw: string): string => raw.trim().toLowerCase();
