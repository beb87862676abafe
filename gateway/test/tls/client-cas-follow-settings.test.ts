import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestPki, startRecordedVendorServer, type RecordedVendorServer } from '@loyalty-gateway/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type RunningGateway } from '../../src/start-gateway.js';
import { CLOVER_AUTH_CODE, CLOVER_MERCHANT, MEMBERS, featuredSeedDocument } from '../../src/testing/featured-seed.js';
import { httpsPost } from '../../src/testing/https-post.js';
import { adapterFixtureJson } from '../../src/testing/native-fixtures.js';
import { advertisedClientCas } from '../../src/testing/advertised-client-cas.js';

const ADMIN_TOKEN = 'adm_tls_test_token_0123456789abcdef';
const dir = mkdtempSync(path.join(os.tmpdir(), 'lg-tls-cas-'));
const serverPki = createTestPki('Gateway Server CA');
const relayA = createTestPki('Clover Relay CA A');
const relayB = createTestPki('Clover Relay CA B');
const server = serverPki.issue('localhost');
const clientA = relayA.issue('relay.example.com');
const clientB = relayB.issue('relay.example.com');
const XYZ = `/v3/merchants/${CLOVER_MERCHANT}`;
const notification = (ts: number) =>
  JSON.stringify({ appId: 'DRKVJT2ZRRRSC', merchants: { [CLOVER_MERCHANT]: [{ objectId: `O:TLSORDER0000${ts}`, type: 'UPDATE', ts }] } });

let api: RecordedVendorServer;
let gw: RunningGateway;
beforeAll(async () => {
  api = await startRecordedVendorServer();
  const paid = adapterFixtureJson('clover', 'order-paid.json') as Record<string, unknown>;
  for (const ts of [1, 2, 3]) api.route(`${XYZ}/orders/TLSORDER0000${ts}`, { body: { ...paid, id: `TLSORDER0000${ts}` } });
  api.route(`${XYZ}/customers/CUSTVJT2ABCRS`, { body: adapterFixtureJson('clover', 'customer.json') });
  // Clover starts on its default scheme (X-Clover-Auth): no provider CA to advertise at start-up.
  writeFileSync(path.join(dir, 'seed.json'), JSON.stringify(featuredSeedDocument({ cloverApi: api.baseUrl })));
  writeFileSync(path.join(dir, 'server.pem'), server.certPem);
  writeFileSync(path.join(dir, 'server.key'), server.keyPem);
  gw = await startGateway({
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: '',
    REDIS_URL: '',
    LOG_LEVEL: 'silent',
    GATEWAY_ENV: 'uat',
    GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN,
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
  for (const pki of [serverPki, relayA, relayB]) pki.dispose();
  rmSync(dir, { recursive: true, force: true });
});

const putCloverSettings = (extra: Record<string, unknown>) =>
  fetch(`${gw.address}/admin/vendors/clover/settings`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ authCode: CLOVER_AUTH_CODE, apiBaseUrl: api.baseUrl, ...extra }),
  });
const mtls = (caPem: string) => ({ auth: { kind: 'mtls', mode: 'direct', caPem } });
const post = (ts: number, client?: { certPem: string; keyPem: string }) =>
  httpsPost({ port: gw.tlsPort!, path: '/webhooks/clover', body: notification(ts), serverCaPem: serverPki.caPem, client });

describe('a provider CA configured after start-up is advertised to clients without a restart', () => {
  it('advertises no CA while no provider uses mTLS direct', async () => {
    expect(await advertisedClientCas(gw.tlsPort!)).toEqual([]);
  });

  it('PUT settings with a new provider CA: advertised by the time the admin API answers, and its client earns', async () => {
    expect((await putCloverSettings(mtls(relayA.caPem))).status).toBe(200);
    expect(await advertisedClientCas(gw.tlsPort!)).toEqual(['CN = Clover Relay CA A']);
    const accepted = await post(1, clientA);
    expect(accepted.statusCode).toBe(200);
    expect(accepted.body.results[0]).toMatchObject({
      transactionId: 'TLSORDER00001',
      status: 'processed',
      membershipId: MEMBERS.clover.membershipId,
    });
  });

  it('a re-keyed provider: the new CA replaces the old one in the list, and only its clients are accepted', async () => {
    expect((await putCloverSettings(mtls(relayB.caPem))).status).toBe(200);
    expect(await advertisedClientCas(gw.tlsPort!)).toEqual(['CN = Clover Relay CA B']);
    expect((await post(2, clientA)).statusCode).toBe(401);
    const accepted = await post(2, clientB);
    expect(accepted.statusCode).toBe(200);
    expect(accepted.body.results[0]).toMatchObject({ transactionId: 'TLSORDER00002', status: 'processed' });
  });

  it('back to the default scheme: no CA advertised any more, the server certificate unchanged', async () => {
    expect((await putCloverSettings({})).status).toBe(200);
    expect(await advertisedClientCas(gw.tlsPort!)).toEqual([]);
    // Same server certificate and key after every swap: the client still verifies it against the gateway's CA.
    expect((await post(3, clientB)).statusCode).toBe(401); // X-Clover-Auth again, none sent
  });
});
