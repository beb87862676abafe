import { GatewayError } from '@loyalty-gateway/core';
import { ODD_JSON_VALUES, adapterKit, catalogItemProblems, envelopeProblems, mutatedJson } from '@loyalty-gateway/core/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { adapter } from './index.js';
import { toCatalogItems } from './map.js';
import { ShopifyVariantNode } from './native.js';
import { GraphqlOrder, asWebhookOrder, orderRefundEnvelopes } from './order-read-back.js';
import { orderEnvelopes } from './map-order.js';
import { fixtures, graphqlOrderOf } from './testing/index.js';

// No access token: order_transactions/create maps its body and stops at a note (its read-back is
// the property of the GraphQL order below).
const kit = adapterKit(adapter, { settings: { appSecret: 'shpss_test_app_secret' }, now: () => new Date('2025-08-01T12:00:00Z') });
const recorded = (name: string, key: string) => fixtures.json<any>(name)[key];
/** A recorded test-gateway refund made live (`test: true` flipped), so its mapping runs past the test check. */
const live = (refund: any) => ({ ...refund, transactions: refund.transactions.map((t: object) => ({ ...t, test: false })) });
const giftCardOrder = recorded('orders-cancelled-with-refund-giftcard-discrepancy.response.json', 'order');
const documented = [
  { topic: 'orders/paid', body: fixtures.json('orders-paid.json') },
  { topic: 'orders/paid', body: recorded('orders-create-phone-normalised.response.json', 'order') },
  { topic: 'orders/paid', body: { ...giftCardOrder, financial_status: 'paid', total_outstanding: '0.00' } },
  { topic: 'orders/cancelled', body: giftCardOrder },
  { topic: 'refunds/create', body: fixtures.json('refunds-create.json') },
  { topic: 'refunds/create', body: recorded('refunds-create-line-items-2026-07.response.json', 'refund') },
  { topic: 'refunds/create', body: live(recorded('refunds-create-shipping-only-refund-shipping-lines.response.json', 'refund')) },
  { topic: 'refunds/create', body: live(recorded('refunds-create-line-item-plus-full-shipping.response.json', 'refund')) },
  { topic: 'refunds/create', body: giftCardOrder.refunds[0] },
  { topic: 'order_transactions/create', body: giftCardOrder.refunds[0].transactions[1] },
  ...recorded('disputes-list.response.json', 'disputes').map((body: unknown) => ({ topic: 'disputes/update', body })),
];

/** One of Shopify's documented deliveries with one to three of its values replaced, deleted, or a key added. */
const delivery = fc.constantFrom(...documented).chain(({ topic, body }) => mutatedJson(body).map((changed) => ({ topic, body: changed })));

describe('shopify mapping under generated deliveries (property)', () => {
  // The door answers 500 for an envelope the canonical schema refuses or a mapping that throws (a
  // mapping bug): whatever a verified delivery holds, it maps to envelopes the schema takes, to a
  // note, or is refused as unreadable (400 invalid_native_payload).
  it('every envelope passes the canonical schema; anything else is a note or a 4xx refusal, never another error', async () => {
    await fc.assert(
      fc.asyncProperty(delivery, async ({ topic, body }) => {
        const request = kit.signed(JSON.stringify(body) ?? 'null', {
          'X-Shopify-Topic': topic,
          'X-Shopify-Shop-Domain': 'bean-there.myshopify.com',
          'X-Shopify-Event-Id': 'e1',
        });
        try {
          await kit.envelopes(request); // each envelope parsed with the strict canonical schema
        } catch (error) {
          expect(error, String(error)).toBeInstanceOf(GatewayError);
          expect((error as GatewayError).statusCode).toBeLessThan(500);
        }
      }),
      { numRuns: 3_000, seed: 20261128 },
    );
  });
});

describe('shopify contact fields under generated values (property)', () => {
  // Whatever Shopify puts in an order's contact fields and address countries, the sale keeps a
  // valid customer or none (core's vendorCustomer): never an envelope the schema refuses.
  const odd = fc.oneof(
    fc.constantFrom(...ODD_JSON_VALUES),
    fc.string(),
    fc.emailAddress(),
    fc.constantFrom('+16136120707', '(613) 612-0707', 'CA', 'ca', 'XX'),
  );
  it('every order with any email, phone and country values maps to valid envelopes or a note', () => {
    fc.assert(
      fc.property(
        fc.record({ email: odd, contact_email: odd, customerEmail: odd, phone: odd, customerPhone: odd, billing: odd, shipping: odd }),
        (v) => {
          const body = {
            ...fixtures.json<any>('orders-paid.json'),
            email: v.email,
            contact_email: v.contact_email,
            phone: v.phone,
            customer: { email: v.customerEmail, phone: v.customerPhone },
            billing_address: { country_code: v.billing },
            shipping_address: { country_code: v.shipping },
          };
          const unit = { topic: 'orders/paid', eventId: 'e1', webhookId: null, triggeredAt: null, body };
          const { envelopes, note } = orderEnvelopes('sale.completed', unit, 'bean-there.myshopify.com', new Date());
          for (const envelope of envelopes) expect(envelopeProblems(envelope)).toEqual([]);
          if (envelopes.length === 0) expect(typeof note).toBe('string');
        },
      ),
      { numRuns: 2_000, seed: 20261128 },
    );
  });
});

describe('shopify order read back (reconciliation, order_transactions/create) under generated answers (property)', () => {
  // The GraphQL order of the lifecycle: paid, a store-credit refund, a shipping-only refund in EUR,
  // the cancellation's gift-card refund (built from the recordings as graphql-order.ts does).
  const storeCredit = recorded('refunds-create-line-items-2026-07.response.json', 'refund');
  const shipping = live(recorded('refunds-create-shipping-only-refund-shipping-lines.response.json', 'refund'));
  const order = graphqlOrderOf(fixtures.json('orders-paid.json'), [
    { ...storeCredit, transactions: storeCredit.transactions.map((t: object) => ({ ...t, gateway: 'shopify_store_credit' })) },
    { ...shipping, transactions: shipping.transactions.map((t: object) => ({ ...t, amount: '4.60', currency: 'EUR' })) },
    giftCardOrder.refunds[0],
  ]);
  it('every order Shopify could answer maps to valid envelopes (sale and refunds) or notes, never a throw', () => {
    let read = 0;
    fc.assert(
      fc.property(mutatedJson(order), (answer) => {
        const parsed = GraphqlOrder.safeParse(answer);
        if (!parsed.success) return; // the pull's failure, the webhook's 503: not the mapping's concern
        read += 1;
        const delivery = { topic: 'order_transactions/create', eventId: 'e1', webhookId: null, triggeredAt: null };
        const sale = orderEnvelopes(
          'sale.completed',
          { ...delivery, topic: 'orders/paid', body: asWebhookOrder(parsed.data) },
          's',
          new Date(),
        );
        const refunds = orderRefundEnvelopes(parsed.data, delivery, 's', new Date());
        for (const envelope of [...sale.envelopes, ...refunds.envelopes]) expect(envelopeProblems(envelope)).toEqual([]);
      }),
      { numRuns: 3_000, seed: 20261128 },
    );
    expect(read).toBeGreaterThan(1_000);
  });
});

describe('shopify catalog items under generated products (property)', () => {
  // One invalid item fails the whole pull (a snapshot with holes would deactivate what it misses):
  // whatever a product holds once the native schema reads it, it maps to a valid catalog item.
  it("every variant of Shopify's documented catalog pages, a few values changed, maps to a valid catalog item or, its id unusable as a key, is left out", () => {
    let mapped = 0;
    fc.assert(
      fc.property(
        fc
          .constantFrom(
            ...[1, 2].flatMap(
              (page) =>
                (fixtures.json(`graphql-variants-page-${page}.json`) as { data: { productVariants: { nodes: unknown[] } } }).data
                  .productVariants.nodes,
            ),
          )
          .chain((variant) => mutatedJson(variant)),
        (body) => {
          const product = ShopifyVariantNode.safeParse(body);
          if (!product.success) return;
          mapped += 1;
          for (const item of toCatalogItems([product.data])) expect(catalogItemProblems(item)).toEqual([]);
        },
      ),
      { numRuns: 3_000, seed: 20261128 },
    );
    expect(mapped).toBeGreaterThan(1_000);
  });
});
