import { EngineUnavailableError, GatewayError, VendorApiError } from '@loyalty-gateway/core';
import { engineCallWhat } from './engine-call-cause.js';
import { causeChain, notedFailure, type FailureCause } from './failure-cause.js';
import { vendorCallFailure } from './vendor-call-failure.js';

/** The gateway's own 5xx without a call to blame, by their code. */
const OWN: Record<string, Omit<FailureCause, 'ms'>> = {
  service_unavailable: { call: 'gateway database', what: 'could not be reached (connection lost or refused); nothing was recorded' },
  shutting_down: { call: 'gateway', what: 'this process was shutting down; nothing was recorded' },
  not_ready: { call: 'gateway', what: 'not ready yet' },
};

/**
 * Why a request answered 5xx with error `code`: the cause noted where the failure was raised (the
 * call, what happened, how long: noteFailure), else what the error chain itself tells (a vendor
 * API error, an unavailable engine, not timed), else the gateway's own state, or an unexpected
 * error by its name (its message stays in the log, which has the stack under the request id).
 */
export function failureCauseOf(error: unknown, code: string): FailureCause {
  const noted = notedFailure(error);
  if (noted) return noted;
  for (const current of causeChain(error)) {
    if (current instanceof VendorApiError) return vendorCallFailure(current, null);
    if (current instanceof EngineUnavailableError) return { call: 'engine', what: engineCallWhat(current)!, ms: null };
  }
  const own = OWN[code];
  if (own) return { ...own, ms: null };
  const name = error instanceof GatewayError || !(error instanceof Error) ? code : `${code}: ${error.name}`;
  return { call: 'gateway', what: `${name}; the gateway's log has the details under this request id`, ms: null };
}
