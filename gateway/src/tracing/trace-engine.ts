import { inSpan, type LoyaltyEngine } from '@loyalty-gateway/core';
import { LOOKUP_CALLS, REQUEST_CALLS, wrapEngineCalls } from '../engine-client/wrap-engine-calls.js';

/** The engine port's operations a request or a run calls: its calls and read-only lookups (not the health check's ping, nor close). */
const OPERATIONS = [...REQUEST_CALLS, ...LOOKUP_CALLS] as const;

/**
 * The engine port with a span per call (`engine earn`, …): the gateway's side of the call, whose
 * children are the HTTP call to a remote engine (which continues the trace from its traceparent)
 * or, with the embedded engine on PostgreSQL, its statements. The outcome is the answer's status
 * (EARNED, DUPLICATE, …) or the error's code. Only wrapped when tracing is on.
 */
export function traceEngine<E extends LoyaltyEngine>(engine: E): E {
  return wrapEngineCalls(
    engine,
    OPERATIONS,
    (operation, call) =>
      (...args) =>
        inSpan(`engine ${operation}`, { 'loyalty.engine.operation': operation }, async (span) => {
          const result = await call(...args);
          const status = (result as { status?: unknown } | null)?.status;
          if (typeof status === 'string') span.set({ 'loyalty.outcome': status });
          return result;
        }),
  );
}
