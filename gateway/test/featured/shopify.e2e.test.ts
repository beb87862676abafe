import { adapter as shopify } from '@loyalty-gateway/adapter-shopify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openFeaturedGateway, type FeaturedGateway } from '../../src/testing/featured-gateway.js';
import { MEMBERS, SHOP_DOMAIN, SHOPIFY_APP_SECRET, featuredSeedDocument } from '../../src/testing/featured-seed.js';
import { adapterFixture, vendorSignature } from '../../src/testing/native-fixtures.js';

const dialects = process.env.DATABASE_URL ? (['sqlite', 'postgres'] as const) : (['sqlite'] as const);
const URL = 'http://localhost/webhooks/shopify';

const shopifyHeaders = (topic: string, body: Buffer, extra: Record<string, string> = {}): Record<string, string> => ({
  'content-type': 'application/json',
  'x-shopify-topic': topic,
  'x-shopify-shop-domain': SHOP_DOMAIN,
  'x-shopify-event-id': '59d6d79c-595f-4e7e-bc6f-72f5c3d0c66f',
  'x-shopify-webhook-id': `delivery-${Math.random()}`,
  ...vendorSignature(shopify.defaultAuth, SHOPIFY_APP_SECRET, URL, body),
  ...extra,
});

describe.each(dialects)('Shopify end to end through /webhooks/shopify (%s)', (dialect) => {
  let gw: FeaturedGateway;
  beforeAll(async () => {
    gw = await openFeaturedGateway({ seedDocument: featuredSeedDocument(), dialect });
  });
  afterAll(() => gw.close());

  const post = (body: Buffer, headers: Record<string, string>) =>
    gw.app.inject({ method: 'POST', url: '/webhooks/shopify', headers, payload: body });

  it('a signed orders/paid sent twice earns exactly once', async () => {
    const body = adapterFixture('shopify', 'orders-paid.json');
    const first = await post(body, shopifyHeaders('orders/paid', body));
    expect(first.statusCode).toBe(200);
    const answer = first.json();
    expect(answer).toMatchObject({ status: 'accepted', skipped: [], notes: [] });
    expect(answer.results).toHaveLength(1);
    expect(answer.results[0]).toMatchObject({
      storeId: SHOP_DOMAIN,
      eventType: 'sale.completed',
      transactionId: '450789469',
      status: 'processed',
      membershipId: MEMBERS.shopify.membershipId,
    });
    const earned = answer.results[0].pointsEarned as number;
    expect(earned).toBeGreaterThan(0);
    expect(await gw.balance(MEMBERS.shopify.membershipId)).toBe(earned);

    const again = await post(body, shopifyHeaders('orders/paid', body));
    expect(again.statusCode).toBe(200);
    expect(again.json().results[0]).toMatchObject({ status: 'duplicate', pointsEarned: 0 });
    expect(await gw.balance(MEMBERS.shopify.membershipId)).toBe(earned);
  });

  it('a bad or missing signature is 401 bad_signature; nothing is earned', async () => {
    const body = adapterFixture('shopify', 'refunds-create.json');
    const before = await gw.balance(MEMBERS.shopify.membershipId);
    const forged = await post(body, shopifyHeaders('refunds/create', body, { 'x-shopify-hmac-sha256': 'bm90IHRoZSBzaWduYXR1cmU=' }));
    expect(forged.statusCode).toBe(401);
    expect(forged.json()).toMatchObject({ statusCode: 401, code: 'bad_signature', requestId: expect.any(String) });
    const { 'x-shopify-hmac-sha256': _dropped, ...unsigned } = shopifyHeaders('refunds/create', body);
    const missing = await post(body, unsigned);
    expect(missing.json()).toMatchObject({ statusCode: 401, code: 'bad_signature' });
    expect(await gw.balance(MEMBERS.shopify.membershipId)).toBe(before);
  });

  it("Shopify's test notification is 200 with nothing earned and a note", async () => {
    const body = adapterFixture('shopify', 'orders-paid-test-notification.json');
    const before = await gw.balance(MEMBERS.shopify.membershipId);
    const response = await post(body, shopifyHeaders('orders/paid', body));
    expect(response.statusCode).toBe(200);
    const answer = response.json();
    expect(answer).toMatchObject({ status: 'accepted', results: [] });
    expect(answer.notes).toHaveLength(1);
    expect(await gw.balance(MEMBERS.shopify.membershipId)).toBe(before);
  });

  it('a verified delivery for a shop with no connection yet is 200, nothing earned, noted for the operator (counted), not 401 (Shopify would delete the subscription); once connected, the next delivery earns', async () => {
    const shop = `later-${dialect}.myshopify.com`;
    const body = adapterFixture('shopify', 'orders-paid.json');
    const headers = shopifyHeaders('orders/paid', body, { 'x-shopify-shop-domain': shop, 'x-shopify-event-id': `unknown-${dialect}` });
    for (let delivery = 1; delivery <= 2; delivery += 1) {
      const response = await post(body, headers);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        status: 'accepted',
        results: [],
        skipped: [{ storeId: shop, reason: 'unknown_connection' }],
      });
    }
    const [note] = (await gw.notes.listVendorNotes('shopify')).filter((n) => n.kind === 'unknown_store' && n.value === shop);
    expect(note).toMatchObject({ count: 2, note: expect.stringContaining(`admin connections create --vendor shopify --store '${shop}'`) });
    expect(note!.firstSeenAt.getTime()).toBeLessThanOrEqual(note!.createdAt.getTime());

    // The operator connects the shop: Shopify's next retry earns.
    await gw.store.ensureConnection({
      vendor: 'shopify',
      storeId: shop,
      merchantId: 'm-bean',
      outletId: 'o-web',
      secret: 'unused-for-shopify-0123456789',
    });
    const earned = await post(body, headers);
    expect(earned.json()).toMatchObject({ status: 'accepted', results: [{ storeId: shop, status: 'processed' }] });
  });

  it('a delivery the app secret does not verify stays 401, whatever shop it names', async () => {
    const body = adapterFixture('shopify', 'orders-paid.json');
    const response = await post(body, {
      ...shopifyHeaders('orders/paid', body, { 'x-shopify-shop-domain': 'nobody.myshopify.com' }),
      'x-shopify-hmac-sha256': 'AAAA',
    });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ code: 'bad_signature' });
  });

  it("a body Shopify's schema cannot read is 400 invalid_native_payload, whatever the Content-Type", async () => {
    const body = Buffer.from('this is not json');
    const response = await post(body, shopifyHeaders('orders/paid', body, { 'content-type': 'text/plain' }));
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ statusCode: 400, code: 'invalid_native_payload' });
  });
});
