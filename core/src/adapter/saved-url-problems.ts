import type { FieldError } from '../schemas/error.js';
import { formatPath } from '../validation.js';
import { MAX_VENDOR_API_URL, savedUrlProblem } from './outbound-url.js';

/** Deeper than any provider settings; what lies below is not walked (a hostile body may nest far deeper). */
const MAX_DEPTH = 16;

/**
 * Every URL in provider settings that may never be called (savedUrlProblem: a cloud metadata or
 * link-local address) or is longer than MAX_VENDOR_API_URL, whatever the adapter names the field
 * or however deep it is, as `fields` under `prefix`. The adapter's schema judges the fields it knows as URLs (VendorApiBaseUrl);
 * this holds every other URL-looking value (a URL template, a future field) to the same rule.
 */
export function savedUrlProblems(settings: unknown, prefix: readonly PropertyKey[] = []): FieldError[] {
  const problems: FieldError[] = [];
  const pending: Array<{ value: unknown; path: PropertyKey[] }> = [{ value: settings, path: [...prefix] }];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const { value, path } = next;
    if (typeof value === 'string') {
      // Bounded like VendorApiBaseUrl: an adapter may work on it per call (Shopify trims its template's trailing slashes).
      const url = /^https?:\/\//i.test(value);
      const problem = !url
        ? null
        : value.length > MAX_VENDOR_API_URL
          ? `must be at most ${MAX_VENDOR_API_URL} characters`
          : savedUrlProblem(value);
      if (problem) problems.push({ path: formatPath(path), message: problem });
    } else if (typeof value === 'object' && value !== null && path.length - prefix.length < MAX_DEPTH) {
      const entries = Array.isArray(value) ? value.map((v, i) => [i, v] as const) : Object.entries(value);
      for (let i = entries.length - 1; i >= 0; i -= 1) pending.push({ value: entries[i]![1], path: [...path, entries[i]![0]] });
    }
  }
  return problems;
}
