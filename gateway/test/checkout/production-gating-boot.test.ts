import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { signedHeaders } from '@loyalty-gateway/core';
import { afterAll, describe, expect, it } from 'vitest';
import { startGateway, type RunningGateway } from '../../src/start-gateway.js';
import { SECRET, STORE, VENDOR, sale, testSeedDocument } from '../../src/testing/test-seed.js';
import { CHECKOUT_FEATURES, type CheckoutFeature } from '../../src/checkout/checkout-features.js';
import { PATHS, freshId } from '../../src/testing/checkout-kit.js';

/**
 * environment-gating.test.ts hands environment and features straight to buildApp; here the gateway
 * boots as it does in production — startGateway from the environment (GATEWAY_ENV=production with
 * the admin token and master key production requires, GATEWAY_FEATURES as an operator writes it),
 * the worker-thread engine on SQLite files, the seed file — and is called over a real socket.
 */
const dir = mkdtempSync(path.join(os.tmpdir(), 'lg-prod-gating-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const seedFile = path.join(dir, 'seed.json');
writeFileSync(seedFile, JSON.stringify(testSeedDocument()));

const REQUESTS: Record<CheckoutFeature, { path: string; body: () => unknown }> = {
  eligibility: { path: PATHS.eligibility, body: () => ({ customer: { type: 'membershipId', value: 'MBR-0001' } }) },
  redeem: {
    path: PATHS.redeem,
    body: () => ({ customer: { type: 'membershipId', value: 'MBR-0001' }, externalTransactionId: freshId('P'), pointsToRedeem: 1 }),
  },
  refund: { path: PATHS.refund, body: () => ({ externalTransactionId: freshId('P'), refundTransactionId: freshId('PR') }) },
  'catalog-sync': { path: PATHS.catalog, body: () => ({ store: { id: STORE }, items: [] }) },
};

async function post(gw: RunningGateway, url: string, payload: unknown) {
  const body = JSON.stringify(payload);
  const headers = { 'content-type': 'application/json', ...signedHeaders({ vendor: VENDOR, store: STORE, secret: SECRET, body }) };
  const response = await fetch(`${gw.address}${url}`, { method: 'POST', headers, body });
  return { status: response.status, body: (await response.json()) as { code?: string } };
}

let boots = 0;
async function bootProduction(features: string | undefined): Promise<RunningGateway> {
  return startGateway({
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: '',
    REDIS_URL: '',
    LOG_LEVEL: 'silent',
    GATEWAY_SCHEDULER: 'off',
    GATEWAY_ENV: 'production',
    GATEWAY_ADMIN_TOKEN: randomBytes(24).toString('hex'),
    GATEWAY_MASTER_KEY: randomBytes(32).toString('base64'),
    GATEWAY_DATA_DIR: path.join(dir, `data-${(boots += 1)}`),
    GATEWAY_SEED_FILE: seedFile,
    GATEWAY_FEATURES: features,
  });
}

describe('production gating through the real boot path (startGateway, GATEWAY_ENV=production)', () => {
  it.each([
    { features: undefined, on: [] },
    { features: 'eligibility,catalog-sync', on: ['eligibility', 'catalog-sync'] },
    { features: ' redeem , refund ', on: ['redeem', 'refund'] },
  ] as Array<{ features: string | undefined; on: CheckoutFeature[] }>)(
    'GATEWAY_FEATURES=$features: exactly $on answer; the others 404 endpoint_not_enabled',
    async ({ features, on }) => {
      const gw = await bootProduction(features);
      try {
        expect(gw.config.GATEWAY_ENV).toBe('production');
        for (const feature of CHECKOUT_FEATURES) {
          const { path: url, body } = REQUESTS[feature];
          const answer = await post(gw, url, body());
          if (on.includes(feature)) expect(answer.status, `${feature}: ${JSON.stringify(answer.body)}`).toBe(200);
          else {
            expect(answer, feature).toMatchObject({ status: 404, body: { statusCode: 404, code: 'endpoint_not_enabled' } });
            const unsigned = await fetch(`${gw.address}${url}`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' });
            expect([unsigned.status, ((await unsigned.json()) as { code: string }).code]).toEqual([404, 'endpoint_not_enabled']);
          }
        }
        // always on: the earn webhook and the liveness probe
        expect(await post(gw, '/webhooks/generic', sale())).toMatchObject({ status: 200, body: { status: 'processed' } });
        expect((await fetch(`${gw.address}/health`)).status).toBe(200);
      } finally {
        await gw.close();
      }
    },
  );
});
