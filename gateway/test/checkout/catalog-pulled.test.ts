import { adapter as shopify } from '@loyalty-gateway/adapter-shopify';
import { signV1 } from '@loyalty-gateway/core';
import { testDialects } from '@loyalty-gateway/storage/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adapters } from '../../src/adapters.js';
import { openFeaturedGateway, type FeaturedGateway } from '../../src/testing/featured-gateway.js';
import { GENERIC_SECRET, SHOP_DOMAIN, featuredSeedDocument } from '../../src/testing/featured-seed.js';
import { PATHS, expectError, expectOk } from '../../src/testing/checkout-kit.js';

/** A signed POST /v1/catalog/sync from the shopify connection (its generic-door secret). */
function push(gw: FeaturedGateway, items: Array<{ externalId: string; name: string; isActive: boolean }>) {
  const body = JSON.stringify({ store: { id: SHOP_DOMAIN }, items });
  const timestamp = String(Math.floor(Date.now() / 1000));
  return gw.app.inject({
    method: 'POST',
    url: PATHS.catalog,
    payload: body,
    headers: {
      'content-type': 'application/json',
      'x-service-vendor': 'shopify',
      'x-service-store': SHOP_DOMAIN,
      'x-service-timestamp': timestamp,
      'x-service-signature': signV1(GENERIC_SECRET, timestamp, body),
    },
  });
}

const items = [
  { externalId: 'p-1', name: 'Latte', isActive: true },
  { externalId: 'p-2', name: 'Scone', isActive: true },
];

describe.each(testDialects())('catalog push from a vendor whose catalog the operator pulls ($name)', ({ name }) => {
  let gw: FeaturedGateway;
  beforeAll(async () => {
    gw = await openFeaturedGateway({ seedDocument: featuredSeedDocument({ tiers: { shopify: 'generic' } }), dialect: name });
  });
  afterAll(() => gw.close());

  it('generic: accepted; promoted (featured, adapter pulls the catalog): 400 catalog_pulled, nothing written; demoted: accepted again', async () => {
    expect(expectOk(await push(gw, items))).toMatchObject({ status: 'synced', itemsCreated: 2 });

    await gw.store.setVendorTier('shopify', 'featured');
    const refused = expectError(await push(gw, items.slice(0, 1)), 400, 'catalog_pulled');
    expect(refused.message).toBe(
      'Shopify is a featured vendor: the operator pulls its catalog on a schedule, so a pushed catalog is not accepted. Nothing was changed.',
    );

    await gw.store.setVendorTier('shopify', 'generic');
    // The refused one-item snapshot deactivated nothing: the same two items are unchanged.
    expect(expectOk(await push(gw, items))).toEqual({
      status: 'synced',
      itemsReceived: 2,
      itemsCreated: 0,
      itemsUpdated: 0,
      itemsDeactivated: 0,
    });
  });
});

describe('catalog push from a featured vendor whose adapter pulls no catalog', () => {
  it('is accepted: nobody else writes that catalog', async () => {
    const withoutPull = adapters.map((a) => (a.slug === shopify.slug ? { ...a, catalog: undefined } : a));
    const gw = await openFeaturedGateway({ seedDocument: featuredSeedDocument(), adapters: withoutPull });
    try {
      expect((await gw.store.getVendor('shopify'))?.tier).toBe('featured');
      expect(expectOk(await push(gw, items))).toMatchObject({ status: 'synced', itemsCreated: 2 });
    } finally {
      await gw.close();
    }
  });
});
