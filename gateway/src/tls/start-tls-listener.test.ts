import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type RunningGateway } from '../start-gateway.js';
import { CLOVER_MERCHANT, MEMBERS, featuredSeedDocument } from '../testing/featured-seed.js';
import { httpsPost } from '../testing/https-post.js';
import { adapterFixtureJson } from '../testing/native-fixtures.js';
import { createTestPki, startRecordedVendorServer, type RecordedVendorServer } from '@loyalty-gateway/core/testing';

const dir = mkdtempSync(path.join(os.tmpdir(), 'lg-tls-'));
const serverPki = createTestPki('Gateway Server CA');
const provider = createTestPki('Clover relay CA');
const server = serverPki.issue('localhost');
const client = provider.issue('relay.example.com');
const XYZ = `/v3/merchants/${CLOVER_MERCHANT}`;
const notification = JSON.stringify({
  appId: 'DRKVJT2ZRRRSC',
  merchants: { [CLOVER_MERCHANT]: [{ objectId: 'O:GHIVJT2ABCRSC', type: 'UPDATE', ts: 1 }] },
});

let api: RecordedVendorServer;
let gw: RunningGateway;
beforeAll(async () => {
  api = await startRecordedVendorServer();
  api.route(`${XYZ}/orders/GHIVJT2ABCRSC`, { body: adapterFixtureJson('clover', 'order-paid.json') });
  api.route(`${XYZ}/customers/CUSTVJT2ABCRS`, { body: adapterFixtureJson('clover', 'customer.json') });
  // The operator puts Clover behind its relay, authenticated by client certificate (mTLS direct).
  const seed = featuredSeedDocument({ cloverApi: api.baseUrl, cloverAuth: { kind: 'mtls', mode: 'direct', caPem: provider.caPem } });
  writeFileSync(path.join(dir, 'seed.json'), JSON.stringify(seed));
  writeFileSync(path.join(dir, 'server.pem'), server.certPem);
  writeFileSync(path.join(dir, 'server.key'), server.keyPem);
  gw = await startGateway({
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: '',
    REDIS_URL: '',
    LOG_LEVEL: 'silent',
    GATEWAY_ENV: 'uat',
    GATEWAY_DATA_DIR: path.join(dir, 'data'),
    GATEWAY_SEED_FILE: path.join(dir, 'seed.json'),
    GATEWAY_SCHEDULER: 'off',
    GATEWAY_TLS_PORT: '0',
    GATEWAY_TLS_CERT_FILE: path.join(dir, 'server.pem'),
    GATEWAY_TLS_KEY_FILE: path.join(dir, 'server.key'),
  });
});
afterAll(async () => {
  await gw?.close();
  await api?.close();
  serverPki.dispose();
  provider.dispose();
  rmSync(dir, { recursive: true, force: true });
});

describe('startGateway with GATEWAY_TLS_PORT: the mTLS listener serves the same routes and services', () => {
  it('a seeded featured vendor configured for mTLS earns through the HTTPS listener with a provider certificate', async () => {
    expect(gw.tlsPort).toBeGreaterThan(0);
    const post = (withCert: boolean) =>
      httpsPost({
        port: gw.tlsPort!,
        path: '/webhooks/clover',
        body: notification,
        serverCaPem: serverPki.caPem,
        client: withCert ? client : undefined,
      });
    const refused = await post(false);
    expect(refused.statusCode).toBe(401);
    expect(refused.body).toMatchObject({ code: 'bad_signature' });
    const accepted = await post(true);
    expect(accepted.statusCode).toBe(200);
    expect(accepted.body.results[0]).toMatchObject({
      storeId: CLOVER_MERCHANT,
      status: 'processed',
      membershipId: MEMBERS.clover.membershipId,
    });
    // Redelivered: the shared pipeline and ledger answer duplicate.
    const again = await post(true);
    expect(again.body.results[0]).toMatchObject({ status: 'duplicate' });
  });

  it('the plain HTTP listener serves the featured doors too (no client certificate there)', async () => {
    const response = await fetch(`${gw.address}/webhooks/clover`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: notification,
    });
    expect(response.status).toBe(401);
    // And the HTTPS listener serves the other doors, each with its own scheme (Shopify's HMAC here).
    const shopify = await httpsPost({ port: gw.tlsPort!, path: '/webhooks/shopify', body: '{}', serverCaPem: serverPki.caPem });
    expect(shopify.statusCode).toBe(401);
    expect(shopify.body).toMatchObject({ code: 'bad_signature' });
  });
});
