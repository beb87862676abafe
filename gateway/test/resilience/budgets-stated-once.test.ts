import { PULL, VENDOR_CALL, WEBHOOK_FETCH_BACK } from '@loyalty-gateway/core';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { ENGINE_CALL, HttpEngineOptions } from '../../src/engine-client/index.js';
import { DEFAULT_PAGE_POLICY } from '../../src/scheduler/index.js';

/**
 * The gateway's four resilience policies (docs/architecture.md, "resilience"): the vendor call,
 * the webhook fetch-back and the pull in core/src/resilience/policies.ts, the engine call in
 * gateway/src/engine-client/engine-call-policy.ts. Each budget is stated once, where its policy
 * lives; the places that use one take it from there.
 */
describe('the named resilience policies', () => {
  it('each budget is stated once: the places that use one take it from its policy', () => {
    expect(PULL.page).toBe(VENDOR_CALL); // a page costs exactly one vendor call: no budget of its own
    expect(DEFAULT_PAGE_POLICY.maxPages).toBe(PULL.catalogMaxPages);
    // The fetch-back is the vendor-call policy with a deadline: the same fields, and the budget.
    expect(Object.keys(WEBHOOK_FETCH_BACK).sort()).toEqual([...Object.keys(VENDOR_CALL), 'budgetMs'].sort());
    const engine = HttpEngineOptions.parse({ url: 'http://127.0.0.1:1' });
    expect(engine).toMatchObject({
      timeoutMs: ENGINE_CALL.timeoutMs,
      breaker: ENGINE_CALL.breaker,
      retryDelaysMs: ENGINE_CALL.readOnlyRetryDelaysMs,
    });
    expect(loadConfig({}).LOYALTY_ENGINE_TIMEOUT_MS).toBe(ENGINE_CALL.timeoutMs);
  });

  it('the budgets cannot be changed at run time', () => {
    for (const budget of [VENDOR_CALL, WEBHOOK_FETCH_BACK, PULL, ENGINE_CALL]) expect(Object.isFrozen(budget)).toBe(true);
    expect(Object.isFrozen(ENGINE_CALL.breaker)).toBe(true);
  });
});
