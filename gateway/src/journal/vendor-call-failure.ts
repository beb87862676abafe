import type { VendorApiError } from '@loyalty-gateway/core';
import type { FailureCause } from './failure-cause.js';
import { vendorCallTarget } from './vendor-call-target.js';

/** The HttpClient's own message for a non-2xx answer (`HTTP 503 from host`): the status says it all. */
const PLAIN_STATUS = /^HTTP \d+ from \S+$/;

/**
 * What a vendor API call that failed says in the journal. A call that got no HTTP answer is
 * `no HTTP answer (could not connect)` whether the port refused, reset or stayed silent, as the
 * run history says it (docs/decisions.md: a record read through the admin API must not tell an
 * open port from a closed one); the system's reason stays in the log. Other messages are the
 * HttpClient's or the adapter's own (the host, a field path, a GraphQL code), never a body.
 */
export function vendorCallWhat(error: VendorApiError): string {
  const attempts = error.attempts !== undefined && error.attempts > 1 ? ` after ${error.attempts} attempts` : '';
  const wait = error.retryAfterMs !== undefined ? ` (Retry-After ${Math.ceil(error.retryAfterMs / 1000)} s)` : '';
  if (error.status === 0)
    return error.message.startsWith('could not connect') ? `no HTTP answer (could not connect)${attempts}` : `${error.message}${attempts}`;
  if (error.status >= 200 && error.status < 300) return `unreadable answer: ${error.message}${attempts}`;
  if (PLAIN_STATUS.test(error.message)) {
    const credentials = error.status === 401 || error.status === 403 ? " (check this connection's credentials)" : '';
    return `HTTP ${error.status}${credentials}${wait}${attempts}`;
  }
  return `${error.message}${attempts}`;
}

/** A vendor API failure as the journal keeps it: the call's host and path template, what happened, how long the fetch-back took. */
export const vendorCallFailure = (error: VendorApiError, ms: number | null): FailureCause => ({
  call: `vendor API ${vendorCallTarget(error.url)}`,
  what: vendorCallWhat(error),
  ms,
});
