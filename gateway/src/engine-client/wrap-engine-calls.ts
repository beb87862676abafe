import type { LoyaltyEngine } from '@loyalty-gateway/core';

/** `start()`'s promise; a synchronous throw becomes its rejection, as from an async function. */
export function promiseOf<T>(start: () => Promise<T>): Promise<T> {
  try {
    return start();
  } catch (error) {
    return Promise.reject(error);
  }
}

/** The engine port's calls a request makes (webhook doors, checkout, a replay). */
export const REQUEST_CALLS = [
  'earn',
  'raiseSale',
  'previewEarn',
  'reverse',
  'withdrawRefunds',
  'eligibility',
  'redeem',
  'catalogSync',
] as const;
/** Its read-only lookups, which requests and scheduled runs make too (an outlet, an order's reversals, the merchants). */
export const LOOKUP_CALLS = ['findOutlet', 'reversedOrders', 'listMerchants'] as const;
/** Every operation of the port but `close`: the calls, the lookups and the health check's `ping`. */
export const ENGINE_OPERATIONS = [...REQUEST_CALLS, ...LOOKUP_CALLS, 'ping'] as const;

// A method added to the port and missing above fails the typecheck here, so no wrapper leaves it out unknowingly.
type Unlisted = Exclude<keyof LoyaltyEngine, (typeof ENGINE_OPERATIONS)[number] | 'close'>;
const everyOperationListed: [Unlisted] extends [never] ? true : Unlisted = true;
void everyOperationListed;

type Call = (...args: unknown[]) => Promise<unknown>;

/**
 * `engine` with each of `operations` replaced by what `wrap` makes of it: the gateway's wrappers of
 * the engine port (its timing, its failure notes, its spans) each see one call at a time. `call`
 * is the engine's own method, bound, its synchronous throws made rejections as promiseOf does
 * (written out: no closure per call on the earn path); the other operations are the engine's,
 * unchanged.
 */
export function wrapEngineCalls<E extends LoyaltyEngine>(
  engine: E,
  operations: readonly (keyof LoyaltyEngine & string)[],
  wrap: (operation: (typeof operations)[number], call: Call) => Call,
): E {
  const wrapped: E = { ...engine };
  for (const operation of operations) {
    const method = (engine[operation] as Call).bind(engine);
    const call: Call = (...args) => {
      try {
        return method(...args);
      } catch (error) {
        return Promise.reject(error);
      }
    };
    (wrapped as unknown as Record<string, Call>)[operation] = wrap(operation, call);
  }
  return wrapped;
}
