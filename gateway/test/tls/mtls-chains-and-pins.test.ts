import { X509Certificate } from 'node:crypto';
import { createTestPki } from '@loyalty-gateway/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adapters } from '../../src/adapters.js';
import { erpTestAdapter } from '../../src/testing/erp-test-adapter.js';
import { openFeaturedGateway, type FeaturedGateway } from '../../src/testing/featured-gateway.js';
import { featuredSeedDocument } from '../../src/testing/featured-seed.js';
import { httpsPost } from '../../src/testing/https-post.js';
import { tlsServerFactory } from '../../src/tls/tls-server-factory.js';

/**
 * mTLS `direct` through real TLS handshakes (certificates made with openssl here): a client chain
 * through an intermediate CA, and the provider's fingerprint pins and subject requirement.
 */
const serverPki = createTestPki('Gateway Server CA');
const provider = createTestPki('ERP Provider Root CA');
const issuing = provider.intermediate('ERP Issuing CA');
const server = serverPki.issue('localhost');
const viaIntermediate = issuing.issue('erp.client.example');
const pinned = provider.issue('erp.client.example');
const sibling = provider.issue('erp.client.example'); // same CA, same subject, another key: not pinned
const otherName = provider.issue('billing.client.example');
const fingerprint = (pem: string) => new X509Certificate(pem).fingerprint256;

let gw: FeaturedGateway;
let port: number;
let orders = 0;
beforeAll(async () => {
  gw = await openFeaturedGateway({
    seedDocument: featuredSeedDocument(),
    adapters: [...adapters, erpTestAdapter()],
    serverFactory: tlsServerFactory({ cert: server.certPem, key: server.keyPem, ca: [provider.caPem] }),
  });
  await gw.store.upsertVendor({ slug: 'erp-test', name: 'Test ERP', tier: 'featured', settings: {} });
  await gw.store.createConnection({ vendor: 'erp-test', storeId: 'site-a', merchantId: 'm-bean', outletId: 'o-till' });
  await gw.app.listen({ port: 0, host: '127.0.0.1' });
  port = (gw.app.server.address() as { port: number }).port;
});
afterAll(async () => {
  await gw.close();
  for (const pki of [serverPki, provider]) pki.dispose();
});

const configure = (auth: Record<string, unknown>) =>
  gw.store.setVendorSettings('erp-test', { auth: { kind: 'mtls', mode: 'direct', ...auth } });
/** A new order (so each accepted one is `processed`) over a real handshake with `client` as the certificate chain. */
function send(client: { certPem: string; keyPem: string }) {
  orders += 1;
  const body = JSON.stringify({ orders: [{ storeId: 'site-a', orderId: `CHAIN-${orders}`, total: 5 }] });
  return httpsPost({ port, path: '/webhooks/erp-test', body, serverCaPem: serverPki.caPem, client });
}
const refusedForCertificate = { statusCode: 401, body: { code: 'bad_signature', message: expect.stringContaining('client certificate') } };

describe('mTLS direct: an intermediate CA between the client certificate and the provider CA (real handshakes)', () => {
  it('accepts a leaf sent with its intermediate, chained up to the provider root', async () => {
    await configure({ caPem: provider.caPem });
    const response = await send({ certPem: viaIntermediate.certPem + issuing.caPem, keyPem: viaIntermediate.keyPem });
    expect(response.statusCode).toBe(200);
    expect(response.body.results[0]).toMatchObject({ storeId: 'site-a', status: 'processed' });
  });

  it('refuses the bare leaf when the intermediate is not sent (it cannot be chained to the root)', async () => {
    await configure({ caPem: provider.caPem });
    expect(await send(viaIntermediate)).toMatchObject(refusedForCertificate);
  });

  it("accepts the bare leaf when the provider's caPem holds the intermediate too", async () => {
    await configure({ caPem: provider.caPem + issuing.caPem });
    expect((await send(viaIntermediate)).statusCode).toBe(200);
  });

  it('refuses a certificate the intermediate did not issue, even sent along with it', async () => {
    await configure({ caPem: provider.caPem });
    const stranger = createTestPki('Stranger CA');
    try {
      const rogue = stranger.issue('erp.client.example');
      expect(await send({ certPem: rogue.certPem + issuing.caPem, keyPem: rogue.keyPem })).toMatchObject(refusedForCertificate);
    } finally {
      stranger.dispose();
    }
  });
});

describe('mTLS direct: fingerprint pins and subject (real handshakes)', () => {
  it('with a pin, only the pinned leaf is accepted; another certificate of the same CA and subject is refused', async () => {
    await configure({ caPem: provider.caPem, fingerprints: [fingerprint(pinned.certPem).toLowerCase().replace(/:/g, '')] });
    expect((await send(pinned)).statusCode).toBe(200);
    expect(await send(sibling)).toMatchObject(refusedForCertificate);
  });

  it('pins apply to the leaf of an intermediate chain, never to the intermediate', async () => {
    await configure({ caPem: provider.caPem, fingerprints: [fingerprint(issuing.caPem)] });
    expect(await send({ certPem: viaIntermediate.certPem + issuing.caPem, keyPem: viaIntermediate.keyPem })).toMatchObject(
      refusedForCertificate,
    );
    await configure({ caPem: provider.caPem, fingerprints: [fingerprint(viaIntermediate.certPem)] });
    expect((await send({ certPem: viaIntermediate.certPem + issuing.caPem, keyPem: viaIntermediate.keyPem })).statusCode).toBe(200);
  });

  it('with a subject, a certificate of the provider CA with another subject is refused', async () => {
    await configure({ caPem: provider.caPem, subject: 'CN=erp.client.example' });
    expect((await send(sibling)).statusCode).toBe(200);
    expect(await send(otherName)).toMatchObject(refusedForCertificate);
  });

  it('pin and subject together: both must hold', async () => {
    await configure({ caPem: provider.caPem, fingerprints: [fingerprint(otherName.certPem)], subject: 'CN=erp.client.example' });
    expect(await send(otherName)).toMatchObject(refusedForCertificate); // pinned, wrong subject
    expect(await send(pinned)).toMatchObject(refusedForCertificate); // right subject, not pinned
  });
});
