import { outboundUrlProblem } from '@loyalty-gateway/core';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';
import { outboundPolicyOf } from './outbound-policy.js';

describe('the outbound policy of an environment', () => {
  it('production refuses loopback; other environments allow it (recorded vendor servers, sandboxes)', () => {
    const production = outboundPolicyOf(loadConfig({ GATEWAY_ENV: 'production', GATEWAY_ADMIN_TOKEN: 'a'.repeat(32) }));
    expect(outboundUrlProblem('http://127.0.0.1:4010/v2/orders/1', production)).toMatch(/loopback address .*refused in production/);
    for (const env of ['development', 'uat', 'beta']) {
      expect(
        outboundUrlProblem(
          'http://127.0.0.1:4010/v2/orders/1',
          outboundPolicyOf(loadConfig({ GATEWAY_ENV: env, GATEWAY_MASTER_KEY: 'k' })),
        ),
      ).toBeNull();
    }
  });

  it('GATEWAY_OUTBOUND_ALLOW names hosts (trimmed, lower-cased, IPv6 brackets dropped) reachable on private addresses', () => {
    const config = loadConfig({
      GATEWAY_ENV: 'production',
      GATEWAY_ADMIN_TOKEN: 'a'.repeat(32),
      GATEWAY_OUTBOUND_ALLOW: ' ERP.internal , 10.0.0.5,[fd12::1] ',
    });
    expect(config.GATEWAY_OUTBOUND_ALLOW).toEqual(['erp.internal', '10.0.0.5', 'fd12::1']);
    const policy = outboundPolicyOf(config);
    expect(outboundUrlProblem('http://erp.internal:8080/api', policy)).toBeNull();
    expect(outboundUrlProblem('https://10.0.0.5/api', policy)).toBeNull();
    expect(outboundUrlProblem('https://[fd12::1]/api', policy)).toBeNull();
    expect(outboundUrlProblem('https://10.0.0.6/api', policy)).toMatch(/private address/);
  });
});
