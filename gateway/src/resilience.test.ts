import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';
import { HttpEngineOptions } from './engine-client/index.js';
import { WEBHOOK_FETCH_POLICY } from './featured/webhook-fetch-policy.js';
import { RESILIENCE_POLICIES } from './resilience.js';
import { DEFAULT_PAGE_POLICY } from './scheduler/index.js';

describe('the named resilience policies', () => {
  it('each budget is stated once: the places that use one take it from its policy', () => {
    const { vendorCall, webhookFetchBack, pull, engineCall } = RESILIENCE_POLICIES;
    expect(pull.page).toBe(vendorCall); // a page costs exactly one vendor call: no budget of its own
    expect(DEFAULT_PAGE_POLICY.maxPages).toBe(pull.catalogMaxPages);
    expect(WEBHOOK_FETCH_POLICY).toBe(webhookFetchBack);
    const engine = HttpEngineOptions.parse({ url: 'http://127.0.0.1:1' });
    expect(engine).toMatchObject({
      timeoutMs: engineCall.timeoutMs,
      breaker: engineCall.breaker,
      retryDelaysMs: engineCall.readOnlyRetryDelaysMs,
    });
    expect(loadConfig({}).LOYALTY_ENGINE_TIMEOUT_MS).toBe(engineCall.timeoutMs);
  });

  it('the budgets cannot be changed at run time', () => {
    for (const budget of Object.values(RESILIENCE_POLICIES)) expect(Object.isFrozen(budget)).toBe(true);
    expect(Object.isFrozen(RESILIENCE_POLICIES.engineCall.breaker)).toBe(true);
  });
});
