import { createHmac } from 'node:crypto';
import { adapter as shopify } from '@loyalty-gateway/adapter-shopify';
import { adapter as square } from '@loyalty-gateway/adapter-square';
import { mutatedAt, startRecordedVendorServer, type JsonPath, type RecordedVendorServer } from '@loyalty-gateway/core/testing';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openFeaturedGateway, type FeaturedGateway } from '../../src/testing/featured-gateway.js';
import {
  CLOVER_AUTH_CODE,
  CLOVER_MERCHANT,
  SHOP_DOMAIN,
  SHOPIFY_APP_SECRET,
  SQUARE_NOTIFICATION_URL,
  SQUARE_SIGNATURE_KEY,
  seedWithWooCommerce,
} from '../../src/testing/featured-seed.js';
import { adapterFixture, adapterFixtureJson, vendorSignature } from '../../src/testing/native-fixtures.js';

const dialects = process.env.DATABASE_URL ? (['sqlite', 'postgres'] as const) : (['sqlite'] as const);
/** Generated deliveries per vendor and dialect (FUZZ_RUNS); FUZZ_SEED=N explores others. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 150);
const SEED = Number(process.env.FUZZ_SEED ?? 20261128);
const WOO_SITE = 'https://wc-contact-fuzz.example.com/';
const WOO_SECRET = 'wc-store-webhook-secret-contact-fuzz';
const CLOVER_PATH = `/v3/merchants/${CLOVER_MERCHANT}`;
/** The order Square's documented payment.updated names, and the customer its documented order names. */
const SQUARE_ORDER_ID = '03O3USaPaAaFnI6kkwB1JxGgBsUZY';
const SQUARE_CUSTOMER = '/v2/customers/JDKYHBWT1D4F8MFH63DBMEN8Y4';

/** Every contact field each vendor documents (those a documented payload lacks are skipped by the generator). */
const SHOPIFY_CONTACTS: JsonPath[] = [
  ['email'],
  ['contact_email'],
  ['phone'],
  ['customer', 'email'],
  ['customer', 'phone'],
  ['billing_address', 'phone'],
  ['billing_address', 'country_code'],
  ['shipping_address', 'phone'],
  ['shipping_address', 'country_code'],
];
const WOO_CONTACTS: JsonPath[] = [
  ['billing', 'email'],
  ['billing', 'phone'],
  ['billing', 'country'],
];
const CLOVER_CONTACTS: JsonPath[] = [
  ['emailAddresses', 'elements', 0, 'emailAddress'],
  ['emailAddresses', 'elements', 0, 'primaryEmail'],
  ['phoneNumbers', 'elements', 0, 'phoneNumber'],
];
const SQUARE_CONTACTS: JsonPath[] = [
  ['customer', 'email_address'],
  ['customer', 'phone_number'],
  ['customer', 'address', 'country'],
];

/**
 * docs/decisions.md, "Customer contact fields": whatever a vendor puts in a customer's email,
 * phone or country fields, a paid order still earns (as that member, or as a walk-in when the
 * contact is unusable): never a 5xx, never a refusal, and the ledger moves exactly the points the
 * answer acknowledged. Each vendor's documented paid order, or the customer its fetch-back reads,
 * with one or more contact fields holding odd values.
 */
describe.each(dialects)("fuzz: vendors' contact fields (%s)", (dialect) => {
  let gw: FeaturedGateway;
  let api: RecordedVendorServer;
  beforeAll(async () => {
    api = await startRecordedVendorServer();
    gw = await openFeaturedGateway({
      seedDocument: seedWithWooCommerce(WOO_SITE, WOO_SECRET, 'featured', { cloverApi: api.baseUrl, squareApi: api.baseUrl }),
      dialect,
    });
  });
  afterAll(async () => {
    await gw?.close();
    await api?.close();
  });

  const earned = async () =>
    Number(
      (
        await sql<{ total: number }>`select coalesce(sum(points), 0) as total from ledger_entries where kind = 'earn'`.execute(
          gw.database.db,
        )
      ).rows[0]!.total,
    );

  /** The door's answer: 200 with the sale processed (earned, or a walk-in's nothing), the ledger grown by exactly that. */
  async function expectSaleEarnedOrWalkIn(response: LightMyRequestResponse, before: number): Promise<'member' | 'walk-in'> {
    expect(response.statusCode, response.body).toBe(200);
    const results = (
      response.json() as { results: Array<{ eventType: string; status: string; pointsEarned: number; membershipId: string }> }
    ).results;
    const sale = results.find((r) => r.eventType === 'sale.completed');
    expect(sale, response.body).toMatchObject({ status: 'processed' });
    expect(await earned()).toBe(before + sale!.pointsEarned);
    return sale!.membershipId === '' ? 'walk-in' : 'member';
  }

  /** Runs `deliver` on generated documents and checks both outcomes were reached (a contact kept, one dropped). */
  async function property(documents: fc.Arbitrary<unknown>, deliver: (document: unknown, n: number) => Promise<LightMyRequestResponse>) {
    let n = 0;
    const seen = new Set<string>();
    await fc.assert(
      fc.asyncProperty(documents, async (document) => {
        n += 1;
        const before = await earned();
        seen.add(await expectSaleEarnedOrWalkIn(await deliver(document, n), before));
      }),
      { numRuns: RUNS, seed: SEED },
    );
    expect([...seen].sort()).toEqual(['member', 'walk-in']);
  }

  it(`${RUNS} Shopify paid orders with odd contact fields: the sale earns, as a member or a walk-in, never a 5xx`, async () => {
    // The second documented order carries billing and shipping addresses (their phones and countries),
    // but is partly paid: given `total_outstanding` 0.00 here (that one change) so that its sale earns.
    const withAddresses = (adapterFixtureJson('shopify', 'orders-create-phone-normalised.response.json') as { order: object }).order;
    const orders = [adapterFixtureJson('shopify', 'orders-paid.json'), { ...withAddresses, total_outstanding: '0.00' }];
    await property(
      fc.constantFrom(...orders).chain((order) => mutatedAt(order, SHOPIFY_CONTACTS)),
      (order, n) => {
        const bytes = Buffer.from(JSON.stringify({ ...(order as object), id: 7_000_000 + n }));
        return gw.app.inject({
          method: 'POST',
          url: '/webhooks/shopify',
          headers: {
            'content-type': 'application/json',
            'x-shopify-topic': 'orders/paid',
            'x-shopify-shop-domain': SHOP_DOMAIN,
            'x-shopify-event-id': `contact-fuzz-${n}`,
            ...vendorSignature(shopify.defaultAuth, SHOPIFY_APP_SECRET, 'http://localhost/webhooks/shopify', bytes),
          },
          payload: bytes,
        });
      },
    );
  }, 120_000);

  it(`${RUNS} WooCommerce paid orders with odd billing contacts: the sale earns, as a member or a walk-in, never a 5xx`, async () => {
    await property(mutatedAt(adapterFixtureJson('woocommerce', 'order-727.json'), WOO_CONTACTS), (order, n) => {
      const bytes = Buffer.from(JSON.stringify({ ...(order as object), id: 700_000 + n }));
      return gw.app.inject({
        method: 'POST',
        url: '/webhooks/woocommerce',
        headers: {
          'content-type': 'application/json',
          'x-wc-webhook-source': WOO_SITE,
          'x-wc-webhook-topic': 'order.updated',
          'x-wc-webhook-signature': createHmac('sha256', WOO_SECRET).update(bytes).digest('base64'),
          'x-wc-webhook-delivery-id': `contact-fuzz-${n}`,
        },
        payload: bytes,
      });
    });
  }, 120_000);

  // Clover's notification names the order; the order names its customer, whose contacts the door reads back.
  it(`${RUNS} Clover customers read back with odd contacts: the sale earns, as a member or a walk-in, never a 5xx`, async () => {
    const order = adapterFixtureJson('clover', 'order-paid.json') as { id: string };
    await property(mutatedAt(adapterFixtureJson('clover', 'customer.json'), CLOVER_CONTACTS), (customer, n) => {
      const id = `CF${String(n).padStart(11, '0')}`; // a Clover id: 13 upper-case letters and digits
      api.route(`${CLOVER_PATH}/orders/${id}`, { body: { ...order, id } });
      api.route(`${CLOVER_PATH}/customers/CUSTVJT2ABCRS`, { body: customer });
      return gw.app.inject({
        method: 'POST',
        url: '/webhooks/clover',
        headers: { 'content-type': 'application/json', 'x-clover-auth': CLOVER_AUTH_CODE },
        payload: {
          appId: 'DRKVJT2ZRRRSC',
          merchants: { [CLOVER_MERCHANT]: [{ objectId: `O:${id}`, type: 'UPDATE', ts: 1_700_000_000_000 + n }] },
        },
      });
    });
  }, 120_000);

  // Square's payment names its order; the order names its customer, whose profile the door reads back.
  it(`${RUNS} Square customer profiles with odd contacts: the sale earns, as a member or a walk-in, never a 5xx`, async () => {
    const payment = adapterFixture('square', 'payment-updated-completed.json').toString('utf8');
    const order = (adapterFixtureJson('square', 'order-retrieve.json') as { order: object }).order;
    await property(mutatedAt(adapterFixtureJson('square', 'customer-retrieve.json'), SQUARE_CONTACTS), (customer, n) => {
      const orderId = `CF${String(n).padStart(27, '0')}`; // Square's order ids: 29 letters and digits
      api.route(`/v2/orders/${orderId}`, { body: { order: { ...order, id: orderId } } });
      api.route(SQUARE_CUSTOMER, { body: customer });
      const delivery = Buffer.from(
        payment.replaceAll(SQUARE_ORDER_ID, orderId).replace(/"event_id":\s*"[^"]*"/, `"event_id": "contact-fuzz-${n}"`),
      );
      return gw.app.inject({
        method: 'POST',
        url: '/webhooks/square',
        headers: {
          'content-type': 'application/json',
          ...vendorSignature(square.defaultAuth, SQUARE_SIGNATURE_KEY, SQUARE_NOTIFICATION_URL, delivery),
        },
        payload: delivery,
      });
    });
  }, 120_000);
});
