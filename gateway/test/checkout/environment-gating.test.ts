import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import type { GatewayFixture } from '../../src/testing/gateway-fixture.js';
import { sale } from '../../src/testing/test-seed.js';
import { CHECKOUT_FEATURES, type CheckoutFeature, type GatewayEnvironment } from '../../src/checkout/checkout-features.js';
import { MEMBERS, PATHS, byMembership, expectError, freshId, openCheckoutGateway } from '../../src/testing/checkout-kit.js';

/** A valid request per feature, and the status it answers when the endpoint is on. */
const REQUESTS: Record<CheckoutFeature, { path: string; body: () => unknown }> = {
  eligibility: { path: PATHS.eligibility, body: () => ({ customer: byMembership(MEMBERS.rich.id) }) },
  redeem: {
    path: PATHS.redeem,
    body: () => ({ customer: byMembership(MEMBERS.rich.id), externalTransactionId: freshId('G'), pointsToRedeem: 1 }),
  },
  refund: { path: PATHS.refund, body: () => ({ externalTransactionId: freshId('G'), refundTransactionId: freshId('GR') }) },
  'catalog-sync': { path: PATHS.catalog, body: () => ({ store: { id: 'store-001' }, items: [] }) },
};

async function withGateway(environment: GatewayEnvironment, features: CheckoutFeature[], run: (gw: GatewayFixture) => Promise<void>) {
  const gw = await openCheckoutGateway('sqlite', { environment, features });
  try {
    await run(gw);
  } finally {
    await gw.close();
  }
}

async function expectOn(gw: GatewayFixture, feature: CheckoutFeature) {
  const { path, body } = REQUESTS[feature];
  const response = await gw.post(path, body());
  expect(response.statusCode, `${feature}: ${response.body}`).toBe(200);
  // auth is enforced on an enabled endpoint
  expectError(await gw.post(path, body(), { signature: 'v1=AAAA' }), 401, 'bad_signature');
}

async function expectOff(gw: GatewayFixture, feature: CheckoutFeature) {
  const { path, body } = REQUESTS[feature];
  expectError(await gw.post(path, body()), 404, 'endpoint_not_enabled');
  // gated before auth: bad, missing or unknown credentials and unreadable bodies all get the same 404
  expectError(await gw.post(path, body(), { signature: 'v1=AAAA' }), 404, 'endpoint_not_enabled');
  expectError(
    await gw.post(path, body(), { vendor: 'nobody', store: null, timestamp: null, signature: null }),
    404,
    'endpoint_not_enabled',
  );
  expectError(await gw.post(path, 'not json', { contentType: 'text/plain' }), 404, 'endpoint_not_enabled');
}

async function expectAlwaysOn(gw: GatewayFixture) {
  const health = await gw.app.inject({ method: 'GET', url: '/health' });
  expect([health.statusCode, health.headers['content-type']]).toEqual([200, 'text/plain; charset=utf-8']);
  expect((await gw.send(sale())).json()).toMatchObject({ status: 'processed' });
}

describe('environment gating of the coming endpoints', () => {
  it.each(['development', 'uat', 'beta'] as const)(
    '%s: all four on, whatever GATEWAY_FEATURES says; webhook and health on',
    async (environment) => {
      await withGateway(environment, [], async (gw) => {
        for (const feature of CHECKOUT_FEATURES) await expectOn(gw, feature);
        await expectAlwaysOn(gw);
      });
    },
  );

  it('production without GATEWAY_FEATURES: all four 404 endpoint_not_enabled before auth; webhook and health on', async () => {
    await withGateway('production', [], async (gw) => {
      for (const feature of CHECKOUT_FEATURES) await expectOff(gw, feature);
      await expectAlwaysOn(gw);
    });
  });

  it('in production a disabled endpoint answers every method 404 endpoint_not_enabled, never revealing itself (no GET 405 with Allow: POST)', async () => {
    await withGateway('production', ['eligibility'], async (gw) => {
      for (const method of ['GET', 'PUT', 'DELETE', 'PATCH'] as const) {
        const response = await gw.app.inject({ method, url: PATHS.refund });
        expectError(response, 404, 'endpoint_not_enabled');
        expect(response.headers.allow).toBeUndefined();
      }
      const enabled = await gw.app.inject({ method: 'GET', url: PATHS.eligibility });
      expectError(enabled, 405, 'method_not_allowed');
      expect(enabled.headers.allow).toBe('POST');
    });
  });

  it('production with GATEWAY_FEATURES=eligibility,refund: exactly those two on', async () => {
    const config = loadConfig({
      GATEWAY_ENV: 'production',
      GATEWAY_FEATURES: ' eligibility, refund ',
      GATEWAY_ADMIN_TOKEN: 'a'.repeat(32),
    });
    expect(config.GATEWAY_FEATURES).toEqual(['eligibility', 'refund']);
    await withGateway(config.GATEWAY_ENV, config.GATEWAY_FEATURES, async (gw) => {
      await expectOn(gw, 'eligibility');
      await expectOn(gw, 'refund');
      await expectOff(gw, 'redeem');
      await expectOff(gw, 'catalog-sync');
      await expectAlwaysOn(gw);
    });
  });

  it('production with every feature listed: all four on', async () => {
    await withGateway('production', [...CHECKOUT_FEATURES], async (gw) => {
      for (const feature of CHECKOUT_FEATURES) await expectOn(gw, feature);
    });
  });

  it('an unknown feature name stops the gateway at boot, naming the variable', () => {
    expect(() => loadConfig({ GATEWAY_FEATURES: 'eligibility,loyalty' })).toThrow(/GATEWAY_FEATURES/);
  });
});
