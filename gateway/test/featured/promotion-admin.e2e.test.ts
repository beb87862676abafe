import { adapter as shopify } from '@loyalty-gateway/adapter-shopify';
import { testDialects } from '@loyalty-gateway/storage/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openOperatorApp, operatorSeed, type OperatorApp } from '../../src/testing/open-operator-app.js';
import { adapterFixture, vendorSignature } from '../../src/testing/native-fixtures.js';

const SHOP = 'bean-there.myshopify.com';
const APP_SECRET = 'shopify-app-secret-value'; // operatorSeed's Shopify settings
const MEMBER = { membershipId: 'MBR-SHOP', email: 'bob.norman@mail.example.com', points: 0 };

describe.each(testDialects())('promotion through the admin API, then native webhooks ($name)', ({ name }) => {
  let t: OperatorApp;
  beforeEach(async () => {
    const seed = operatorSeed();
    seed.merchants[0]!.members.push(MEMBER as never);
    t = await openOperatorApp({ dialect: name, seedDocument: seed });
  });
  afterEach(() => t.close());

  const native = (topic: string, body: Buffer) =>
    t.app.inject({
      method: 'POST',
      url: '/webhooks/shopify',
      payload: body,
      headers: {
        'content-type': 'application/json',
        'x-shopify-topic': topic,
        'x-shopify-shop-domain': SHOP,
        'x-shopify-event-id': `evt-${topic}`,
        ...vendorSignature(shopify.defaultAuth, APP_SECRET, 'http://localhost/webhooks/shopify', body),
      },
    });

  it('demoted: 404; connection and promotion through /admin; a signed orders/paid earns once; demoted again: 404', async () => {
    const body = adapterFixture('shopify', 'orders-paid.json');
    expect((await t.admin('POST', '/admin/vendors/shopify/demote')).statusCode).toBe(200);
    expect((await native('orders/paid', body)).json()).toMatchObject({ statusCode: 404, code: 'vendor_not_featured' });

    const created = await t.admin('POST', '/admin/connections', {
      vendor: 'shopify',
      storeId: SHOP,
      merchantId: 'm-bean',
      outletId: 'o-downtown',
      credentials: { accessToken: 'shpat_x' },
    });
    expect(created.statusCode).toBe(201);
    expect((await t.admin('POST', '/admin/vendors/shopify/promote')).json()).toMatchObject({
      vendor: { slug: 'shopify', tier: 'featured' },
    });

    const first = await native('orders/paid', body);
    expect(first.statusCode).toBe(200);
    const [result] = first.json().results;
    expect(result).toMatchObject({ storeId: SHOP, transactionId: '450789469', status: 'processed', membershipId: MEMBER.membershipId });
    expect(result.pointsEarned).toBeGreaterThan(0);
    expect((await native('orders/paid', body)).json().results[0]).toMatchObject({ status: 'duplicate', pointsEarned: 0 });

    expect((await t.admin('POST', '/admin/vendors/shopify/demote')).statusCode).toBe(200);
    expect((await native('orders/paid', body)).statusCode).toBe(404);
  });
});
