import { createHmac } from 'node:crypto';
import { adapter as shopify } from '@loyalty-gateway/adapter-shopify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adapters } from '../../src/adapters.js';
import { erpTestAdapter } from '../../src/testing/erp-test-adapter.js';
import { openFeaturedGateway, type FeaturedGateway } from '../../src/testing/featured-gateway.js';
import { MEMBERS, SHOP_DOMAIN, featuredSeedDocument } from '../../src/testing/featured-seed.js';
import { adapterFixture } from '../../src/testing/native-fixtures.js';

const SECRET_A = 'erp-secret-for-site-a-0123456789';
const SECRET_B = 'erp-secret-for-site-b-0123456789';
const member = MEMBERS.square;
const sign = (secret: string, body: Buffer | string) => createHmac('sha256', secret).update(body).digest('base64');
const orders = (...list: Array<Record<string, unknown>>) => Buffer.from(JSON.stringify({ orders: list }));

let gw: FeaturedGateway;
beforeAll(async () => {
  gw = await openFeaturedGateway({
    seedDocument: featuredSeedDocument(),
    adapters: [...adapters, erpTestAdapter(), erpTestAdapter({ slug: 'erp-form', body: 'form' })],
  });
  await gw.store.upsertVendor({ slug: 'erp-test', name: 'Test ERP', tier: 'featured', settings: {} });
  await gw.store.upsertVendor({ slug: 'erp-form', name: 'Form ERP', tier: 'featured', settings: {} });
  const at = { merchantId: 'm-bean', outletId: 'o-till' };
  await gw.store.createConnection({ vendor: 'erp-test', storeId: 'site-a', secret: SECRET_A, ...at });
  await gw.store.createConnection({ vendor: 'erp-test', storeId: 'site-b', secret: SECRET_B, ...at });
  await gw.store.createConnection({ vendor: 'erp-test', storeId: 'site-closed', secret: SECRET_A, active: false, ...at });
  await gw.store.createConnection({ vendor: 'erp-form', storeId: 'site-a', secret: SECRET_A, ...at });
});
afterAll(() => gw.close());

const postErp = (body: Buffer, signature: string | null, url = '/webhooks/erp-test', contentType = 'application/json') =>
  gw.app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': contentType, ...(signature ? { 'x-erp-signature': signature } : {}) },
    payload: body,
  });

describe('the featured door, per-connection secrets and batches', () => {
  it("verifies each unit with its own connection's secret: the other store's unit is skipped, the rest earns", async () => {
    const body = orders(
      { storeId: 'site-a', orderId: 'E-1', total: 20, email: member.email },
      { storeId: 'site-b', orderId: 'E-2', total: 30, email: member.email },
    );
    const response = await postErp(body, sign(SECRET_A, body));
    expect(response.statusCode).toBe(200);
    const answer = response.json();
    expect(answer.results).toEqual([
      expect.objectContaining({ storeId: 'site-a', transactionId: 'E-1', status: 'processed', pointsEarned: 20 }),
    ]);
    expect(answer.skipped).toEqual([{ storeId: 'site-b', reason: 'bad_signature' }]);
    expect(await gw.balance(member.membershipId)).toBe(20);
  });

  it('no unit authenticated or resolvable → 401: bad_signature, unknown_connection (inactive counts as unknown)', async () => {
    const body = orders({ storeId: 'site-a', orderId: 'E-3', total: 5 });
    expect((await postErp(body, sign('wrong-secret', body))).json()).toMatchObject({ statusCode: 401, code: 'bad_signature' });
    expect((await postErp(body, null)).json()).toMatchObject({ statusCode: 401, code: 'bad_signature' });
    const unknown = orders({ storeId: 'site-zzz', orderId: 'E-4', total: 5 }, { storeId: 'site-closed', orderId: 'E-5', total: 5 });
    const response = await postErp(unknown, sign(SECRET_A, unknown));
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ code: 'unknown_connection' });
  });

  it('a signed request naming no store is 200 with a note; an unsigned handshake the adapter declares is 200 before any auth', async () => {
    const empty = orders();
    expect((await postErp(empty, sign('any-secret', empty))).json()).toEqual({
      status: 'accepted',
      results: [],
      skipped: [],
      notes: ['The request concerns no store: nothing to do.'],
    });
    expect((await postErp(empty, null)).json()).toMatchObject({ statusCode: 401, code: 'bad_signature' });
    const ping = await postErp(Buffer.from('{"ping":"pong-42"}'), null);
    expect(ping.json()).toEqual({ status: 'handshake', note: 'ERP connectivity ping' });
    expect((await gw.notes.listVendorNotes('erp-test'))[0]).toMatchObject({
      value: 'pong-42',
      note: 'ERP connectivity ping (unsigned, from 127.0.0.1)',
    });
  });

  it("a mapping bug is a 500, never dropped; the batch's good unit still counts and dedupes on redelivery", async () => {
    for (const bug of ['invalid-envelope', 'other-store', 'throws']) {
      const body = orders(
        { storeId: 'site-a', orderId: `GOOD-${bug}`, total: 1, email: member.email },
        { storeId: 'site-a', orderId: `BAD-${bug}`, total: 1, bug },
      );
      const response = await postErp(body, sign(SECRET_A, body));
      expect(response.statusCode).toBe(500);
      expect(response.json()).toMatchObject({ statusCode: 500, code: 'internal_error' });
      const retry = await postErp(body, sign(SECRET_A, body));
      expect(retry.statusCode).toBe(500);
    }
    expect(await gw.balance(member.membershipId)).toBe(23);
  });

  it('a form-encoded vendor is read as a form, whatever else it could be', async () => {
    const body = Buffer.from(new URLSearchParams({ storeId: 'site-a', orderId: 'F-1', total: '7', email: member.email }).toString());
    const response = await postErp(body, sign(SECRET_A, body), '/webhooks/erp-form', 'application/x-www-form-urlencoded');
    expect(response.statusCode).toBe(200);
    expect(response.json().results[0]).toMatchObject({ transactionId: 'F-1', status: 'processed' });
  });
});

describe('the featured door, vendor registry and provider settings', () => {
  it('answers 404 vendor_not_featured for a generic or absent vendor, and 405 for another method', async () => {
    await gw.store.setVendorTier('erp-form', 'generic');
    const response = await postErp(orders(), null, '/webhooks/erp-form');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ code: 'vendor_not_featured' });
    expect((await gw.app.inject({ method: 'GET', url: '/webhooks/erp-test' })).json()).toMatchObject({
      statusCode: 405,
      code: 'method_not_allowed',
    });
  });

  it("invalid provider settings are the operator's fault: 500", async () => {
    const empty = orders();
    await gw.store.setVendorSettings('erp-test', { region: 5 });
    const response = await postErp(empty, sign(SECRET_A, empty));
    expect(response.statusCode).toBe(500);
    expect(response.json()).toMatchObject({ code: 'internal_error' });
    await gw.store.setVendorSettings('erp-test', { auth: { kind: 'hmac' } });
    expect((await postErp(empty, sign(SECRET_A, empty))).statusCode).toBe(500);
    await gw.store.setVendorSettings('erp-test', {});
    expect((await postErp(empty, sign(SECRET_A, empty))).statusCode).toBe(200);
  });

  it("an operator's auth override replaces the adapter's default scheme (its secret key kept out of the adapter schema)", async () => {
    await gw.store.setVendorSettings('shopify', {
      appSecret: 'unused-now',
      auth: { kind: 'static-header', header: 'X-Relay-Token', secret: { from: 'settings', key: 'relayToken' } },
      relayToken: 'relay-token-123',
    });
    const body = adapterFixture('shopify', 'orders-paid.json');
    const headers = { 'content-type': 'application/json', 'x-shopify-topic': 'orders/paid', 'x-shopify-shop-domain': SHOP_DOMAIN };
    const ok = await gw.app.inject({
      method: 'POST',
      url: '/webhooks/shopify',
      headers: { ...headers, 'x-relay-token': 'relay-token-123' },
      payload: body,
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().results[0]).toMatchObject({ transactionId: '450789469', status: 'processed' });
    const hmacOnly = await gw.app.inject({
      method: 'POST',
      url: '/webhooks/shopify',
      payload: body,
      headers: { ...headers, 'x-shopify-hmac-sha256': createHmac('sha256', 'unused-now').update(body).digest('base64') },
    });
    expect(hmacOnly.json()).toMatchObject({ statusCode: 401, code: 'bad_signature' });
    expect(shopify.defaultAuth.kind).toBe('hmac');
  });
});
