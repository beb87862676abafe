import { createHmac } from 'node:crypto';
import { adapter as shopify } from '@loyalty-gateway/adapter-shopify';
import { adapter as square } from '@loyalty-gateway/adapter-square';
import { ErrorBody } from '@loyalty-gateway/core';
import { mutatedJson, startRecordedVendorServer, type RecordedVendorServer } from '@loyalty-gateway/core/testing';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openFeaturedGateway, type FeaturedGateway } from '../../src/testing/featured-gateway.js';
import {
  CLOVER_AUTH_CODE,
  CLOVER_MERCHANT,
  SHOP_DOMAIN,
  SHOPIFY_APP_SECRET,
  SQUARE_LOCATION,
  SQUARE_NOTIFICATION_URL,
  SQUARE_SIGNATURE_KEY,
  seedWithWooCommerce,
} from '../../src/testing/featured-seed.js';
import { adapterFixture, adapterFixtureJson, vendorSignature } from '../../src/testing/native-fixtures.js';
import { acknowledgedBy, pointsMoved, type AnsweredResult } from '../../src/testing/ledger-movements.js';

const dialects = process.env.DATABASE_URL ? (['sqlite', 'postgres'] as const) : (['sqlite'] as const);
/** Generated deliveries per vendor and dialect (FUZZ_RUNS); FUZZ_SEED=N explores others (the fixed seed keeps CI repeatable). */
const RUNS = Number(process.env.FUZZ_RUNS ?? 250);
const SEED = Number(process.env.FUZZ_SEED ?? 20261128);
const WOO_SITE = 'https://wc-fuzz.example.com/';
const WOO_SECRET = 'wc-store-webhook-secret-fuzz';
const CLOVER_PATH = `/v3/merchants/${CLOVER_MERCHANT}`;
/** The order Square's documented payment.updated names. */
const SQUARE_ORDER_ID = '03O3USaPaAaFnI6kkwB1JxGgBsUZY';

const shopifyResource = (file: string, key: string): unknown => (adapterFixtureJson('shopify', file) as Record<string, unknown>)[key];
const woo727 = adapterFixtureJson('woocommerce', 'order-727.json') as Record<string, unknown>;
const woo723Refunds = ((
  adapterFixtureJson('woocommerce', 'orders-list.json') as Array<{ id: number; refunds: Array<{ id: number }> }>
).find((order) => order.id === 723)?.refunds ?? []) as Array<{ id: number }>;

interface Vendor {
  slug: 'shopify' | 'woocommerce';
  /** The vendor's own documented deliveries (unedited fixtures; SOURCES.md beside them), with the headers they come with. */
  bases: Array<{ body: unknown; topic: string }>;
  /** A fresh order id for each generated sale, so that each can earn (the mutation may still change it). */
  freshId(body: unknown, n: number): unknown;
  headers(topic: string, body: Buffer): Record<string, string>;
  /** Documented deliveries sent once, unchanged, before the generated ones: the sales the documented refunds name. */
  earlier?: Array<{ body: unknown; topic: string }>;
}

const vendors: Vendor[] = [
  {
    slug: 'shopify',
    // API responses carry the webhook's body as their one resource (`{"refund": …}`): that object is what Shopify posts.
    bases: [
      { body: adapterFixtureJson('shopify', 'orders-paid.json'), topic: 'orders/paid' },
      { body: shopifyResource('orders-create-phone-normalised.response.json', 'order'), topic: 'orders/paid' },
      { body: shopifyResource('orders-cancelled-with-refund-giftcard-discrepancy.response.json', 'order'), topic: 'orders/cancelled' },
      { body: adapterFixtureJson('shopify', 'refunds-create.json'), topic: 'refunds/create' },
      { body: shopifyResource('refunds-create-shipping-only-refund-shipping-lines.response.json', 'refund'), topic: 'refunds/create' },
      { body: shopifyResource('refunds-create-line-items-2026-07.response.json', 'refund'), topic: 'refunds/create' },
      { body: shopifyResource('disputes-needs-response.response.json', 'dispute'), topic: 'disputes/update' },
    ],
    // Order 450789469 paid as documented first: the documented refund (209.00) of it then reverses.
    earlier: [{ body: adapterFixtureJson('shopify', 'orders-paid.json'), topic: 'orders/paid' }],
    // A fresh id for each generated order, refund or dispute (a refund keeps its order: the sale it reverses).
    freshId: (body, n) => ({ ...(body as object), id: 9_000_000 + n }),
    headers: (topic, body) => ({
      'content-type': 'application/json',
      'x-shopify-topic': topic,
      'x-shopify-shop-domain': SHOP_DOMAIN,
      'x-shopify-event-id': `fuzz-${Math.random()}`,
      'x-shopify-webhook-id': `fuzz-${Math.random()}`,
      ...vendorSignature(shopify.defaultAuth, SHOPIFY_APP_SECRET, 'http://localhost/webhooks/shopify', body),
    }),
  },
  {
    slug: 'woocommerce',
    // The documented order 727 (processing, paid), its documented update to completed, and built in
    // this test from documented parts: 727 given order 723's two documented refunds (no document shows
    // a paid order with refunds), and 727 cancelled and failed after payment.
    bases: [
      { body: woo727, topic: 'order.updated' },
      { body: adapterFixtureJson('woocommerce', 'order-727-update-completed.json'), topic: 'order.updated' },
      { body: { ...woo727, refunds: woo723Refunds }, topic: 'order.updated' },
      { body: { ...woo727, status: 'cancelled', refunds: woo723Refunds.slice(0, 1) }, topic: 'order.updated' },
      { body: { ...woo727, status: 'failed' }, topic: 'order.updated' },
    ],
    // A fresh order id, and refund ids of its own (a refund id is unique per store).
    freshId: (body, n) => {
      const order = body as { refunds?: Array<{ id: number }> };
      return {
        ...order,
        id: 900_000 + n,
        ...(order.refunds ? { refunds: order.refunds.map((r, i) => ({ ...r, id: 9_000_000 + n * 10 + i })) } : {}),
      };
    },
    headers: (topic, body) => ({
      'content-type': 'application/json',
      'x-wc-webhook-source': WOO_SITE,
      'x-wc-webhook-topic': topic,
      'x-wc-webhook-signature': createHmac('sha256', WOO_SECRET).update(body).digest('base64'),
      'x-wc-webhook-id': '14',
      'x-wc-webhook-delivery-id': `fuzz-${Math.random()}`,
    }),
  },
];

/** A Clover order with `id`, its refunds' ids made from it (`R<n><order id's digits>`, still 13 characters) where it lists them. */
function freshCloverIds(order: object, id: string): object {
  const refunds = (order as { refunds?: { elements?: unknown } }).refunds;
  if (!refunds || !Array.isArray(refunds.elements)) return { ...order, id };
  const elements = refunds.elements.map((refund: unknown, i: number) =>
    refund !== null && typeof refund === 'object' && 'id' in refund ? { ...refund, id: `R${i}${id.slice(2)}` } : refund,
  );
  return { ...order, id, refunds: { ...refunds, elements } };
}

/**
 * The featured doors under generated deliveries: each vendor's own documented payloads with one
 * value replaced (another type, an edge number, odd text), deleted, or a key added, correctly
 * signed with the vendor's scheme, so that every one reaches the mapping. Whatever the payload:
 * never a 5xx; a refusal is the spec's Error body agreeing with its status and X-Request-ID (a 422
 * with `fields`) and earns nothing; an acceptance answers each result, and the ledger's earned
 * points grow by exactly the points the answers acknowledged.
 */
describe.each(dialects)('fuzz: the featured doors under generated vendor payloads (%s)', (dialect) => {
  let gw: FeaturedGateway;
  let vendorApi: RecordedVendorServer;
  beforeAll(async () => {
    // Clover's and Square's APIs (their paths differ), for the doors' fetch-back.
    vendorApi = await startRecordedVendorServer();
    vendorApi.route(`${CLOVER_PATH}/customers/CUSTVJT2ABCRS`, { body: adapterFixtureJson('clover', 'customer.json') });
    vendorApi.route('/v2/customers/JDKYHBWT1D4F8MFH63DBMEN8Y4', { body: adapterFixtureJson('square', 'customer-retrieve.json') });
    gw = await openFeaturedGateway({
      seedDocument: seedWithWooCommerce(WOO_SITE, WOO_SECRET, 'featured', { cloverApi: vendorApi.baseUrl, squareApi: vendorApi.baseUrl }),
      dialect,
    });
  });
  afterAll(async () => {
    await gw?.close();
    await vendorApi?.close();
  });

  const moved = () => pointsMoved(gw.database.db);

  /**
   * A door's answer to a delivery whose order it fetched back: 200 with the ledger's earned points
   * grown by exactly what the results acknowledged (returned), or 503 vendor_api_unavailable in the
   * Error shape for an answer the adapter cannot read, nothing earned; never anything else.
   */
  async function checkFetchBackAnswer(response: LightMyRequestResponse, before: number): Promise<number> {
    if (response.statusCode !== 200) {
      expect(response.statusCode, response.body).toBe(503);
      const error = ErrorBody.parse(response.json());
      expect([error.code, error.requestId]).toEqual(['vendor_api_unavailable', response.headers['x-request-id']]);
      expect(await moved()).toBe(before);
      return 0;
    }
    const acknowledged = acknowledgedBy((response.json() as { results: AnsweredResult[] }).results);
    expect(await moved()).toBe(before + acknowledged);
    return acknowledged;
  }

  it.each(vendors)(
    `${RUNS} signed $slug deliveries: no 5xx, refusals in the Error shape earning nothing, the ledger equals what was acknowledged`,
    async (vendor) => {
      let n = 0;
      const statuses = new Map<number, number>();
      let earning = 0;
      let reversing = 0;
      for (const { body, topic } of vendor.earlier ?? []) {
        const bytes = Buffer.from(JSON.stringify(body));
        const response = await gw.app.inject({
          method: 'POST',
          url: `/webhooks/${vendor.slug}`,
          headers: vendor.headers(topic, bytes),
          payload: bytes,
        });
        expect(response.statusCode, response.body).toBe(200);
      }
      // One to three changes to one of the vendor's documented deliveries, each given a fresh order id first.
      const delivery = fc
        .constantFrom(...vendor.bases)
        .chain((base) => mutatedJson(vendor.freshId(base.body, (n += 1))).map((body) => ({ topic: base.topic, body })));
      await fc.assert(
        fc.asyncProperty(delivery, async ({ topic, body }) => {
          const bytes = Buffer.from(JSON.stringify(body) ?? 'null');
          const before = await moved();
          const response = await gw.app.inject({
            method: 'POST',
            url: `/webhooks/${vendor.slug}`,
            headers: vendor.headers(topic, bytes),
            payload: bytes,
          });
          statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
          expect(response.statusCode, response.body).toBeLessThan(500);
          if (response.statusCode >= 300) {
            const error = ErrorBody.parse(response.json());
            expect(error.statusCode).toBe(response.statusCode);
            expect(error.requestId).toBe(response.headers['x-request-id']);
            if (response.statusCode === 422) expect(error.fields?.length ?? 0).toBeGreaterThan(0);
            expect(await moved()).toBe(before);
            return;
          }
          const answer = response.json() as { status: string; results: AnsweredResult[] };
          expect(answer.status).toBe('accepted');
          const acknowledged = acknowledgedBy(answer.results);
          expect(await moved()).toBe(before + acknowledged);
          if (acknowledged > 0) earning += 1;
          if (answer.results.some((r) => r.status === 'processed' && (r.pointsReversed ?? 0) > 0)) reversing += 1;
        }),
        { numRuns: RUNS, seed: SEED },
      );
      // The generator reaches both sides: deliveries that earned, and deliveries refused or accepted with nothing to earn.
      expect(earning).toBeGreaterThan(RUNS / 10);
      expect(RUNS - earning).toBeGreaterThan(RUNS / 10);
      // …and deliveries that reversed what an earlier one earned (refunds of orders the generator paid).
      expect(reversing).toBeGreaterThan(0);
    },
    120_000,
  );

  // Clover's webhook carries ids only: the door fetches the order back. Here Clover's API answers
  // each notification's order as documented with a few values changed.
  it(`${RUNS} Clover notifications whose fetched order has a few values changed: 200, or 503 vendor_api_unavailable for an answer the adapter cannot read, never a 500; the ledger equals what was acknowledged`, async () => {
    let n = 0;
    let earning = 0;
    const statuses = new Map<string, number>();
    // Clover's documented orders: paid, refunded, the docs' orders listing (split payments, no paymentState), an SDK open order.
    const listing = (adapterFixtureJson('clover', 'orders-listing-split.json') as { elements: unknown[] }).elements;
    const documented = [
      adapterFixtureJson('clover', 'order-paid.json'),
      adapterFixtureJson('clover', 'order-refunded.json'),
      ...listing,
      adapterFixtureJson('clover', 'order-open-no-payment-state.json'),
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...documented).chain((order) => mutatedJson(order)),
        async (order) => {
          n += 1;
          const id = `FZ${String(n).padStart(11, '0')}`; // a Clover id: 13 upper-case letters and digits
          // Each generated order and its refunds get ids of their own (Clover's are unique; a refund id
          // reused for another order would be refused and reported in the answer's skipped).
          const answer = order !== null && typeof order === 'object' && !Array.isArray(order) ? freshCloverIds(order, id) : order;
          vendorApi.route(`${CLOVER_PATH}/orders/${id}`, { body: answer });
          const notification = Buffer.from(
            JSON.stringify({
              appId: 'DRKVJT2ZRRRSC',
              merchants: { [CLOVER_MERCHANT]: [{ objectId: `O:${id}`, type: 'UPDATE', ts: 1_700_000_000_000 + n }] },
            }),
          );
          const before = await moved();
          const response = await gw.app.inject({
            method: 'POST',
            url: '/webhooks/clover',
            headers: { 'content-type': 'application/json', 'x-clover-auth': CLOVER_AUTH_CODE },
            payload: notification,
          });
          const key = `${response.statusCode}`;
          statuses.set(key, (statuses.get(key) ?? 0) + 1);
          if ((await checkFetchBackAnswer(response, before)) > 0) earning += 1;
        },
      ),
      { numRuns: RUNS, seed: SEED },
    );
    expect(earning).toBeGreaterThan(RUNS / 10);
    expect(statuses.get('503') ?? 0).toBeGreaterThan(0); // answers the adapter cannot read were generated too
  }, 120_000);

  // Square's payment.updated names its order: the door fetches it. Here Square's API answers each
  // payment's order as documented with a few values changed.
  it(`${RUNS} Square payments whose fetched order has a few values changed: 200, or 503 vendor_api_unavailable for an answer the adapter cannot read, never a 500; the ledger equals what was acknowledged`, async () => {
    let n = 0;
    let earning = 0;
    const payment = adapterFixture('square', 'payment-updated-completed.json').toString('utf8');
    const documented = adapterFixtureJson('square', 'order-retrieve.json');
    await fc.assert(
      fc.asyncProperty(mutatedJson(documented), async (answer) => {
        n += 1;
        const orderId = `FZ${String(n).padStart(27, '0')}`; // Square's order ids: 29 letters and digits
        const order = (answer as { order?: unknown } | null)?.order;
        const body =
          order !== null && typeof order === 'object' && !Array.isArray(order)
            ? { ...(answer as object), order: { ...order, id: orderId } }
            : answer;
        vendorApi.route(`/v2/orders/${orderId}`, { body });
        const delivery = Buffer.from(
          payment.replaceAll(SQUARE_ORDER_ID, orderId).replace(/"event_id":\s*"[^"]*"/, `"event_id": "fuzz-${n}"`),
        );
        const before = await moved();
        const response = await gw.app.inject({
          method: 'POST',
          url: '/webhooks/square',
          headers: {
            'content-type': 'application/json',
            ...vendorSignature(square.defaultAuth, SQUARE_SIGNATURE_KEY, SQUARE_NOTIFICATION_URL, delivery),
          },
          payload: delivery,
        });
        if ((await checkFetchBackAnswer(response, before)) > 0) earning += 1;
      }),
      { numRuns: RUNS, seed: SEED },
    );
    expect(earning).toBeGreaterThan(RUNS / 10);
  }, 120_000);

  // Square's other events, as documented, each with a few values changed: disputes (the door reads
  // the disputed payment's order back), refunds, order.updated (the order read back), invoices.
  // Their location is the seeded one (Square's examples name other sandbox locations): that
  // replacement is the only edit before the generator's.
  it(`${RUNS} Square dispute, refund, order and invoice events with a few values changed: 200, or 503 vendor_api_unavailable, never a 500; the ledger equals what was acknowledged`, async () => {
    const located = (file: string) =>
      JSON.parse(
        adapterFixture('square', file)
          .toString('utf8')
          .replace(/"location_id":\s*"[^"]*"/g, `"location_id": "${SQUARE_LOCATION}"`),
      ) as unknown;
    const events = [
      'dispute-state-updated-webhook.json',
      'dispute-created-webhook.json',
      'dispute-state-changed-webhook-deprecated.json',
      'refund-updated-completed.json',
      'refund-created-pending.json',
      'order-updated-webhook.json',
      'invoice-payment-made-webhook.json',
      'invoice-canceled-webhook.json',
    ].map(located);
    // What the door reads back: the disputed or refunded payment and its order, answered as documented.
    const payment = adapterFixtureJson('square', 'payment-retrieve.json') as { payment: Record<string, unknown> };
    const order = adapterFixtureJson('square', 'order-retrieve.json') as { order: Record<string, unknown> };
    for (const id of ['fbmsaEOpoARDKxiSGH1fqPuqoqFZY', 'KkAkhdMsgzn59SM8A89WgKwekxLZY'])
      vendorApi.route(`/v2/payments/${id}`, {
        body: { payment: { ...payment.payment, id, order_id: SQUARE_ORDER_ID, location_id: SQUARE_LOCATION } },
      });
    vendorApi.route(`/v2/orders/${SQUARE_ORDER_ID}`, {
      body: { order: { ...order.order, id: SQUARE_ORDER_ID, location_id: SQUARE_LOCATION } },
    });
    let n = 0;
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...events).chain((event) => mutatedJson(event)),
        async (event) => {
          n += 1;
          const fresh =
            event !== null && typeof event === 'object' && !Array.isArray(event) ? { ...event, event_id: `fuzz-ev-${n}` } : event;
          const delivery = Buffer.from(JSON.stringify(fresh) ?? 'null');
          const before = await moved();
          const response = await gw.app.inject({
            method: 'POST',
            url: '/webhooks/square',
            headers: {
              'content-type': 'application/json',
              ...vendorSignature(square.defaultAuth, SQUARE_SIGNATURE_KEY, SQUARE_NOTIFICATION_URL, delivery),
            },
            payload: delivery,
          });
          statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
          if (response.statusCode === 200 || response.statusCode === 503) await checkFetchBackAnswer(response, before);
          else {
            // A body that is not a Square event (the generator replaced the root, or a required id): refused in the Error shape.
            expect(response.statusCode, response.body).toBeLessThan(500);
            const error = ErrorBody.parse(response.json());
            expect([error.statusCode, error.requestId]).toEqual([response.statusCode, response.headers['x-request-id']]);
            expect(await moved()).toBe(before);
          }
        },
      ),
      { numRuns: RUNS, seed: SEED },
    );
    expect(statuses.get(200) ?? 0).toBeGreaterThan(RUNS / 2);
  }, 120_000);
});
