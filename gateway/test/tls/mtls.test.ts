import { createTestPki } from '@loyalty-gateway/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adapters } from '../../src/adapters.js';
import { erpTestAdapter } from '../../src/testing/erp-test-adapter.js';
import { openFeaturedGateway, type FeaturedGateway } from '../../src/testing/featured-gateway.js';
import { MEMBERS, featuredSeedDocument } from '../../src/testing/featured-seed.js';
import { httpsPost } from '../../src/testing/https-post.js';
import { tlsServerFactory } from '../../src/tls/tls-server-factory.js';

const serverPki = createTestPki('Gateway Server CA');
const provider = createTestPki('ERP Provider CA');
const stranger = createTestPki('Stranger CA');
const server = serverPki.issue('localhost');
const client = provider.issue('erp.client.example');
const rogue = stranger.issue('erp.client.example');
const member = MEMBERS.clover;
const order = (orderId: string) => JSON.stringify({ orders: [{ storeId: 'site-a', orderId, total: 10, email: member.email }] });

let gw: FeaturedGateway;
let port: number;
beforeAll(async () => {
  gw = await openFeaturedGateway({
    seedDocument: featuredSeedDocument(),
    adapters: [...adapters, erpTestAdapter()],
    serverFactory: tlsServerFactory({ cert: server.certPem, key: server.keyPem, ca: [provider.caPem] }),
  });
  // The operator configures this provider for mTLS (direct): an override of the adapter's default HMAC.
  await gw.store.upsertVendor({
    slug: 'erp-test',
    name: 'Test ERP',
    tier: 'featured',
    settings: { auth: { kind: 'mtls', mode: 'direct', caPem: provider.caPem } },
  });
  await gw.store.createConnection({ vendor: 'erp-test', storeId: 'site-a', merchantId: 'm-bean', outletId: 'o-till' });
  await gw.app.listen({ port: 0, host: '127.0.0.1' });
  port = (gw.app.server.address() as { port: number }).port;
});
afterAll(async () => {
  await gw.close();
  for (const pki of [serverPki, provider, stranger]) pki.dispose();
});

const post = (body: string, withCert?: { certPem: string; keyPem: string }, headers: Record<string, string> = {}) =>
  httpsPost({ port, path: '/webhooks/erp-test', body, serverCaPem: serverPki.caPem, client: withCert, headers });

describe('mTLS, direct: the gateway terminates TLS (real handshakes)', () => {
  it('a client certificate issued by the provider CA earns, once', async () => {
    const first = await post(order('TLS-1'), client);
    expect(first.statusCode).toBe(200);
    expect(first.body.results[0]).toMatchObject({ storeId: 'site-a', transactionId: 'TLS-1', status: 'processed', pointsEarned: 10 });
    const again = await post(order('TLS-1'), client);
    expect(again.body.results[0]).toMatchObject({ status: 'duplicate' });
    expect(await gw.balance(member.membershipId)).toBe(10);
  });

  it('no certificate, or one from another CA, is 401 bad_signature with the certificate named', async () => {
    for (const attempt of [undefined, rogue]) {
      const response = await post(order('TLS-2'), attempt);
      expect(response.statusCode).toBe(401);
      expect(response.body).toMatchObject({ statusCode: 401, code: 'bad_signature', message: expect.stringContaining('certificate') });
    }
    expect(await gw.balance(member.membershipId)).toBe(10);
  });

  it('a forwarded-certificate header is ignored in direct mode', async () => {
    const response = await post(order('TLS-3'), undefined, { 'x-client-cert': encodeURIComponent(client.certPem) });
    expect(response.statusCode).toBe(401);
  });
});

describe('mTLS, proxy: a TLS-terminating proxy forwards the verified certificate', () => {
  const viaProxy = (certPem: string, remoteAddress: string) =>
    gw.app.inject({
      method: 'POST',
      url: '/webhooks/erp-test',
      remoteAddress,
      payload: order('PROXY-1'),
      headers: { 'content-type': 'application/json', 'x-client-cert': encodeURIComponent(certPem) },
    });

  it('believes the header only from a trusted proxy address, and only for the provider CA', async () => {
    await gw.store.setVendorSettings('erp-test', {
      auth: { kind: 'mtls', mode: 'proxy', caPem: provider.caPem, trustedProxies: ['127.0.0.1'] },
    });
    expect((await viaProxy(client.certPem, '10.9.8.7')).json()).toMatchObject({ statusCode: 401, code: 'bad_signature' });
    expect((await viaProxy(rogue.certPem, '127.0.0.1')).json()).toMatchObject({ statusCode: 401, code: 'bad_signature' });
    const trusted = await viaProxy(client.certPem, '127.0.0.1');
    expect(trusted.statusCode).toBe(200);
    expect(trusted.json().results[0]).toMatchObject({ transactionId: 'PROXY-1', status: 'processed' });
  });

  it('over a real socket from 127.0.0.1: trusted when configured, refused when not', async () => {
    const header = { 'x-client-cert': encodeURIComponent(client.certPem) };
    await gw.store.setVendorSettings('erp-test', {
      auth: { kind: 'mtls', mode: 'proxy', caPem: provider.caPem, trustedProxies: ['10.0.0.1'] },
    });
    expect((await post(order('PROXY-2'), undefined, header)).statusCode).toBe(401);
    await gw.store.setVendorSettings('erp-test', {
      auth: { kind: 'mtls', mode: 'proxy', caPem: provider.caPem, trustedProxies: ['127.0.0.1'] },
    });
    const response = await post(order('PROXY-2'), undefined, header);
    expect(response.statusCode).toBe(200);
    expect(response.body.results[0]).toMatchObject({ transactionId: 'PROXY-2', status: 'processed' });
  });
});
