import { adapter as shopify } from '@loyalty-gateway/adapter-shopify';
import { signV1 } from '@loyalty-gateway/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openFeaturedGateway, type FeaturedGateway } from '../../src/testing/featured-gateway.js';
import { GENERIC_SECRET, MEMBERS, SHOP_DOMAIN, SHOPIFY_APP_SECRET, featuredSeedDocument } from '../../src/testing/featured-seed.js';
import { adapterFixture, vendorSignature } from '../../src/testing/native-fixtures.js';

const dialects = process.env.DATABASE_URL ? (['sqlite', 'postgres'] as const) : (['sqlite'] as const);
const member = MEMBERS.shopify.membershipId;

/** The canonical envelope a generic integration of the same shop would send for the fixture's order. */
function genericSale(orderId: string) {
  return {
    eventId: `generic:${orderId}`,
    eventType: 'sale.completed',
    occurredAt: '2025-06-01T10:00:00Z',
    store: { id: SHOP_DOMAIN },
    transaction: { id: orderId, total: 598.94, currency: 'USD', customer: { type: 'email', value: MEMBERS.shopify.email }, items: [] },
  };
}

describe.each(dialects)('promotion and the two doors (%s)', (dialect) => {
  let gw: FeaturedGateway;
  beforeAll(async () => {
    gw = await openFeaturedGateway({ seedDocument: featuredSeedDocument({ tiers: { shopify: 'generic' } }), dialect });
  });
  afterAll(() => gw.close());

  const native = (body: Buffer, eventId: string) =>
    gw.app.inject({
      method: 'POST',
      url: '/webhooks/shopify',
      payload: body,
      headers: {
        'content-type': 'application/json',
        'x-shopify-topic': 'orders/paid',
        'x-shopify-shop-domain': SHOP_DOMAIN,
        'x-shopify-event-id': eventId,
        ...vendorSignature(shopify.defaultAuth, SHOPIFY_APP_SECRET, 'http://localhost/webhooks/shopify', body),
      },
    });
  const generic = (envelope: unknown) => {
    const body = JSON.stringify(envelope);
    const timestamp = String(Math.floor(Date.now() / 1000));
    return gw.app.inject({
      method: 'POST',
      url: '/webhooks/generic',
      payload: body,
      headers: {
        'content-type': 'application/json',
        'x-service-vendor': 'shopify',
        'x-service-store': SHOP_DOMAIN,
        'x-service-timestamp': timestamp,
        'x-service-signature': signV1(GENERIC_SECRET, timestamp, body),
      },
    });
  };

  it('is live: 404 vendor_not_featured while generic, 200 once promoted, 404 again once demoted; nothing else changes', async () => {
    const body = adapterFixture('shopify', 'orders-paid.json');
    const before = await native(body, 'evt-1');
    expect(before.statusCode).toBe(404);
    expect(before.json()).toMatchObject({ statusCode: 404, code: 'vendor_not_featured', requestId: expect.any(String) });

    // History made through the generic door while the vendor is generic.
    expect((await generic(genericSale('G-100'))).json()).toMatchObject({ status: 'processed', membershipId: member });
    const connections = await gw.store.listConnections({ vendor: 'shopify' });
    const balance = await gw.balance(member);

    await gw.store.setVendorTier('shopify', 'featured');
    const promoted = await native(body, 'evt-1');
    expect(promoted.statusCode).toBe(200);
    expect(promoted.json().results[0]).toMatchObject({ transactionId: '450789469', status: 'processed' });
    const earned = promoted.json().results[0].pointsEarned as number;
    expect(await gw.store.listConnections({ vendor: 'shopify' })).toEqual(connections);
    expect(await gw.balance(member)).toBe(balance + earned);
    // The ledger history from before promotion still counts: G-100 is a duplicate at either door.
    expect((await generic(genericSale('G-100'))).json()).toMatchObject({ status: 'duplicate' });

    await gw.store.setVendorTier('shopify', 'generic');
    expect((await native(body, 'evt-1')).json()).toMatchObject({ code: 'vendor_not_featured' });
    expect(await gw.store.listConnections({ vendor: 'shopify' })).toEqual(connections);
    expect(await gw.balance(member)).toBe(balance + earned);
  });

  it('during migration both doors accept the promoted vendor and the same sale earns once, whichever door comes first', async () => {
    await gw.store.setVendorTier('shopify', 'featured');
    const order = (id: string) => Buffer.from(adapterFixture('shopify', 'orders-paid.json').toString('utf8').replaceAll('450789469', id));
    const start = await gw.balance(member);

    const viaGeneric = await generic(genericSale('777000111'));
    expect(viaGeneric.json()).toMatchObject({ status: 'processed' });
    const first = viaGeneric.json().pointsEarned as number;
    expect(first).toBeGreaterThan(0);
    const thenNative = await native(order('777000111'), 'evt-2');
    expect(thenNative.statusCode).toBe(200);
    expect(thenNative.json().results[0]).toMatchObject({ transactionId: '777000111', status: 'duplicate', pointsEarned: 0 });

    const viaNative = await native(order('777000222'), 'evt-3');
    expect(viaNative.json().results[0]).toMatchObject({ transactionId: '777000222', status: 'processed' });
    const second = viaNative.json().results[0].pointsEarned as number;
    expect((await generic(genericSale('777000222'))).json()).toMatchObject({ status: 'duplicate', pointsEarned: 0 });

    expect(await gw.balance(member)).toBe(start + first + second);
  });
});
