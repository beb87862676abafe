import { adapter as shopify } from '@loyalty-gateway/adapter-shopify';
import { startRecordedVendorServer, type RecordedVendorServer } from '@loyalty-gateway/core/testing';
import { testDialects } from '@loyalty-gateway/storage/testing';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, openOperatorApp, type OperatorApp } from '../../src/testing/open-operator-app.js';
import { CLOVER_MERCHANT, featuredSeedDocument, MEMBERS, SHOP_DOMAIN, SHOPIFY_APP_SECRET } from '../../src/testing/featured-seed.js';
import { adapterFixture, adapterFixtureJson, vendorSignature } from '../../src/testing/native-fixtures.js';

type Json = Record<string, any>;
const XYZ = `/v3/merchants/${CLOVER_MERCHANT}`;
const ORDER_HEADERS = { 'X-Shopify-Topic': 'orders/paid', 'X-Shopify-Shop-Domain': SHOP_DOMAIN };

describe.each(testDialects())('POST /admin/adapters/{slug}/preview on a real socket ($name)', ({ name }) => {
  let api: RecordedVendorServer;
  let t: OperatorApp;
  let address: string;
  beforeAll(async () => {
    api = await startRecordedVendorServer();
    api.route(`${XYZ}/orders/GHIVJT2ABCRSC`, { body: adapterFixtureJson('clover', 'order-paid.json') });
    api.route(`${XYZ}/customers/CUSTVJT2ABCRS`, { body: adapterFixtureJson('clover', 'customer.json') });
    api.route(`${XYZ}/orders/ABCVJTABCRRSC`, { body: adapterFixtureJson('clover', 'order-refunded.json') });
  });
  afterAll(async () => {
    await api.close();
  });
  beforeEach(async () => {
    t = await openOperatorApp({ dialect: name, journal: true, seedDocument: featuredSeedDocument({ cloverApi: api.baseUrl }) });
    address = await t.app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterEach(async () => {
    await t.close();
  });

  const previewOf = async (slug: string, body: unknown, token: string | null = ADMIN_TOKEN) => {
    const response = await fetch(`${address}/admin/adapters/${slug}/preview`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Json };
  };
  const balance = (membershipId: string) =>
    t.engine
      .eligibility({
        merchantId: 'm-bean',
        outletId: 'o-web',
        source: { vendor: 'shopify', storeId: SHOP_DOMAIN },
        customer: { type: 'membershipId', value: membershipId },
      })
      .then((r) => r.walletBalance);
  const journalled = async () => {
    await t.journal!.flush();
    return (await t.admin('GET', '/admin/deliveries?limit=100')).json().deliveries as Json[];
  };

  it('maps a Shopify order without its signature into its envelope and earn preview, commits nothing, and the real delivery then earns that', async () => {
    const order = adapterFixtureJson('shopify', 'orders-paid.json');
    const first = await previewOf('shopify', { payload: order, headers: ORDER_HEADERS });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ adapter: 'shopify', handshake: null, unreadable: [] });
    const [unit] = first.body.units as Json[];
    expect(unit).toMatchObject({ storeId: SHOP_DOMAIN, connection: { storeId: SHOP_DOMAIN, outletId: 'o-web' }, error: null });
    expect(unit!.events.map((e: Json) => [e.envelope.eventType, e.envelope.transaction.id, e.preview.status])).toEqual([
      ['sale.completed', '450789469', 'would_process'],
    ]);
    const previewed = unit!.events[0].preview;
    expect(previewed).toMatchObject({ membershipId: MEMBERS.shopify.membershipId, pointsEarned: expect.any(Number) });
    expect(previewed.pointsEarned).toBeGreaterThan(0);
    // Nothing committed, nothing journalled (the admin API is not), so the same preview again says the same.
    expect(await balance(MEMBERS.shopify.membershipId)).toBe(0);
    expect(await journalled()).toEqual([]);
    expect((await previewOf('shopify', { payload: order, headers: ORDER_HEADERS })).body).toEqual(first.body);

    const payload = Buffer.from(JSON.stringify(order));
    const delivered = await fetch(`${address}/webhooks/shopify`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-shopify-topic': 'orders/paid',
        'x-shopify-shop-domain': SHOP_DOMAIN,
        ...vendorSignature(shopify.defaultAuth, SHOPIFY_APP_SECRET, '', payload),
      },
      body: payload,
    });
    expect(delivered.status).toBe(200);
    expect(await balance(MEMBERS.shopify.membershipId)).toBe(previewed.pointsEarned);
    const after = await previewOf('shopify', { payload: order, headers: ORDER_HEADERS });
    expect(after.body.units[0].events[0].preview.status).toBe('would_be_duplicate');
  });

  it("fetches back only when asked: a Clover batch says what it would call, then, asked, maps each order from the vendor's API", async () => {
    const batch = adapterFixture('clover', 'webhook-notification.json').toString('utf8');
    const calls = api.seen.length;
    const without = await previewOf('clover', { body: batch });
    expect(without.status).toBe(200);
    const units = without.body.units as Json[];
    const ours = units.filter((u) => u.storeId === CLOVER_MERCHANT);
    expect(ours[0]).toMatchObject({
      connection: { storeId: CLOVER_MERCHANT },
      events: [],
      error: {
        code: 'vendor_api_unavailable',
        cause: { call: expect.stringContaining('/v3/merchants/{id}/orders/{id}'), what: expect.stringContaining('not called') },
      },
    });
    expect(units.filter((u) => u.storeId !== CLOVER_MERCHANT).every((u) => u.error.code === 'connection_not_found')).toBe(true);
    expect(api.seen.length).toBe(calls);

    const asked = await previewOf('clover', { body: batch, fetchBack: true });
    const events = (asked.body.units as Json[]).filter((u) => u.storeId === CLOVER_MERCHANT).flatMap((u) => u.events as Json[]);
    // Each order's state begins with the reversals Clover still lists for it (refunds.listed): not previewed, as refunds.
    expect(events.map((e) => [e.envelope.eventType, e.envelope.transaction.id, e.preview.status])).toEqual([
      ['refunds.listed', 'GHIVJT2ABCRSC', 'not_previewed'],
      ['sale.completed', 'GHIVJT2ABCRSC', 'would_process'],
      ['refunds.listed', 'ABCVJTABCRRSC', 'not_previewed'],
      ['sale.completed', 'ABCVJTABCRRSC', 'would_process'],
      ['sale.refunded', 'ABCVJTABCRRSC', 'not_previewed'],
      ['sale.refunded', 'ABCVJTABCRRSC', 'not_previewed'],
    ]);
    expect(events[1]!.preview.membershipId).toBe(MEMBERS.clover.membershipId);
    expect(api.seen.length).toBeGreaterThan(calls);
    expect(
      await t.engine
        .eligibility({
          merchantId: 'm-bean',
          outletId: 'o-till',
          source: { vendor: 'clover', storeId: CLOVER_MERCHANT },
          customer: { type: 'membershipId', value: MEMBERS.clover.membershipId },
        })
        .then((r) => r.walletBalance),
    ).toBe(0);
  });

  it('maps for the store asked for, answers a setup call as a handshake, and refuses what it cannot preview', async () => {
    const order = adapterFixtureJson('shopify', 'orders-paid.json');
    const elsewhere = await previewOf('shopify', {
      payload: order,
      headers: { ...ORDER_HEADERS, 'X-Shopify-Shop-Domain': 'another-shop.myshopify.com' },
      store: SHOP_DOMAIN,
    });
    expect(elsewhere.body.units[0]).toMatchObject({ storeId: 'another-shop.myshopify.com', connection: { storeId: SHOP_DOMAIN } });
    expect(elsewhere.body.units[0].events[0].envelope.store.id).toBe(SHOP_DOMAIN);
    const unconnected = await previewOf('shopify', {
      payload: order,
      headers: { ...ORDER_HEADERS, 'X-Shopify-Shop-Domain': 'another-shop.myshopify.com' },
    });
    expect(unconnected.body.units[0].error.code).toBe('connection_not_found');

    expect(
      (await previewOf('clover', { body: adapterFixture('clover', 'webhook-verification.json').toString('utf8') })).body,
    ).toMatchObject({
      handshake: { note: expect.any(String) },
      units: [],
    });

    const refusals: Array<[string, unknown, number, string]> = [
      ['nope', { payload: order }, 404, 'adapter_not_found'],
      ['shopify', { payload: order, headers: ORDER_HEADERS, store: 'no-such-shop.myshopify.com' }, 404, 'connection_not_found'],
      ['shopify', { body: 'not JSON at all', headers: ORDER_HEADERS }, 400, 'invalid_native_payload'],
      ['shopify', { payload: order, body: '{}' }, 422, 'validation_failed'],
      ['shopify', { payload: order, extra: 1 }, 422, 'validation_failed'],
    ];
    for (const [slug, body, status, code] of refusals) {
      const refused = await previewOf(slug, body);
      expect({ slug, status: refused.status, code: refused.body.code }).toEqual({ slug, status, code });
    }
    expect((await previewOf('shopify', { payload: order }, null)).status).toBe(401);
  });
});
