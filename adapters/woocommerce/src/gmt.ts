/**
 * A GMT time WooCommerce writes without its zone ("2017-03-22T19:28:08") as canonical UTC ISO, or
 * null when it is not one. A year outside 0000–9999 is null too: toISOString would write it as
 * `+010000-…`, which no envelope accepts.
 */
export function gmt(value: string | null | undefined): string | null {
  const ms = value ? Date.parse(/[zZ]|[+-]\d\d:\d\d$/.test(value) ? value : `${value}Z`) : Number.NaN;
  if (Number.isNaN(ms)) return null;
  const iso = new Date(ms).toISOString();
  return /^\d{4}-/.test(iso) ? iso : null;
}
