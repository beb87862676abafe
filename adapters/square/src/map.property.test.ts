import { catalogItemProblems, envelopeProblems, mutatedJson } from '@loyalty-gateway/core/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classify, toCatalogItems, toDisputeEnvelopes, toRefundEnvelopes, toSaleEnvelopes } from './map.js';
import { SquareCatalogObject, SquareEvent, SquareRetrieveCustomerResponse, SquareRetrieveOrderResponse } from './native.js';
import { GIFT_CARD_DESTINATION, INVOICE, assembledOrder, fixtures, tender } from './testing/index.js';

const LOCATION = 'S8GWD5R9QB376';
const RECEIVED_AT = '2025-08-01T12:00:00.000Z';
const valid = (envelopes: unknown[]) => {
  for (const envelope of envelopes) expect(envelopeProblems(envelope)).toEqual([]);
};

describe('square map under generated deliveries and fetched objects (property)', () => {
  // The door answers 500 for an envelope the canonical schema refuses (a mapping bug): whatever the
  // webhook and the fetched order and customer hold once their schemas read them, the mapping
  // returns envelopes the schema takes, or a note.
  // The orders a sale reads back: Square's documented COMPLETED order (RetrieveOrder), its PayOrder
  // answer (split tender) and OPEN order, and an invoice's order after its deposit (tenders, net amount due).
  const orders = [
    fixtures.json('order-retrieve.json'),
    fixtures.json('pay-order-response-split-tender.json'),
    fixtures.json('retrieve-order-response-open.json'),
    assembledOrder({
      id: INVOICE.orderId,
      locationId: LOCATION,
      customerId: INVOICE.customerId,
      state: 'OPEN',
      total: INVOICE.total,
      tenders: [tender('hYy9pRFVxpDsO1FB05SunFWUe9JZY', INVOICE.deposit, INVOICE.orderId, LOCATION)],
      netDue: INVOICE.balance,
      updatedAt: '2021-01-23T15:29:56.000Z',
    }),
  ];
  const anOrder = fc.constantFrom(...orders).chain((order) => mutatedJson(order));

  it('a sale: the documented payment.updated, each order and the customer (email, phone, address country), each with a few values changed', () => {
    let sales = 0;
    let earned = 0;
    fc.assert(
      fc.property(
        mutatedJson(fixtures.json('payment-updated-completed.json')),
        anOrder,
        mutatedJson(fixtures.json('customer-retrieve.json')),
        (eventBody, orderBody, customerBody) => {
          const event = SquareEvent.safeParse(eventBody);
          const order = SquareRetrieveOrderResponse.safeParse(orderBody);
          if (!event.success || !order.success || !order.data.order) return;
          const action = classify(event.data);
          if (action.kind !== 'sale') return;
          sales += 1;
          const customer = SquareRetrieveCustomerResponse.safeParse(customerBody);
          const input = {
            event: event.data,
            storeId: LOCATION,
            payment: action.payment,
            order: order.data.order,
            customer: customer.success ? (customer.data.customer ?? null) : null,
            receivedAt: RECEIVED_AT,
          };
          const { envelopes, note } = toSaleEnvelopes(input);
          valid(envelopes);
          earned += envelopes.length;
          if (envelopes.length === 0) expect(typeof note).toBe('string');
        },
      ),
      { numRuns: 3_000, seed: 20261128 },
    );
    expect(sales).toBeGreaterThan(1_000);
    expect(earned).toBeGreaterThan(500);
  });

  it('an order.updated: the documented stub (made COMPLETED) and each order read back, with a few values changed', () => {
    const stub = fixtures.json<{ data: { object: { order_updated: Record<string, unknown> } } }>('order-updated-webhook.json');
    stub.data.object.order_updated.state = 'COMPLETED';
    let orderEvents = 0;
    fc.assert(
      fc.property(
        mutatedJson(stub),
        anOrder,
        mutatedJson(fixtures.json('customer-retrieve.json')),
        (eventBody, orderBody, customerBody) => {
          const event = SquareEvent.safeParse(eventBody);
          const order = SquareRetrieveOrderResponse.safeParse(orderBody);
          if (!event.success || !order.success || !order.data.order) return;
          const action = classify(event.data);
          if (action.kind !== 'order') {
            expect(action).toMatchObject({ kind: 'ignore', note: expect.any(String) });
            return;
          }
          orderEvents += 1;
          const customer = SquareRetrieveCustomerResponse.safeParse(customerBody);
          const { envelopes, note } = toSaleEnvelopes({
            event: event.data,
            storeId: LOCATION,
            payment: null,
            order: order.data.order,
            customer: customer.success ? (customer.data.customer ?? null) : null,
            receivedAt: RECEIVED_AT,
          });
          valid(envelopes);
          if (envelopes.length === 0) expect(typeof note).toBe('string');
        },
      ),
      { numRuns: 2_000, seed: 20261128 },
    );
    expect(orderEvents).toBeGreaterThan(500);
  });

  it("a dispute: Square's three documented dispute events (made LOST), with a few values changed", () => {
    const lost = (
      ['dispute-created-webhook.json', 'dispute-state-updated-webhook.json', 'dispute-state-changed-webhook-deprecated.json'] as const
    ).map((name) => {
      const body = fixtures.json<{ data: { object: { dispute: Record<string, unknown> } } }>(name);
      body.data.object.dispute.state = 'LOST';
      return body;
    });
    let disputes = 0;
    fc.assert(
      fc.property(
        fc.constantFrom(...lost).chain((body) => mutatedJson(body)),
        (eventBody) => {
          const event = SquareEvent.safeParse(eventBody);
          if (!event.success) return;
          const action = classify(event.data);
          if (action.kind !== 'dispute') {
            expect(action).toMatchObject({ kind: 'ignore', note: expect.any(String) });
            return;
          }
          disputes += 1;
          const { envelopes, note } = toDisputeEnvelopes(
            event.data,
            action.dispute,
            action.disputeId,
            'SALE-ORDER-1',
            LOCATION,
            RECEIVED_AT,
          );
          valid(envelopes);
          if (envelopes.length === 0) expect(typeof note).toBe('string');
        },
      ),
      { numRuns: 3_000, seed: 20261128 },
    );
    expect(disputes).toBeGreaterThan(1_000);
  });

  it("an invoice event: Square's documented ones, with a few values changed, are a note (never an envelope, never a throw)", () => {
    const invoices = [
      'invoice-payment-made-webhook.json',
      'invoice-canceled-webhook.json',
      'invoice-refunded-webhook.json',
      'invoice-updated-webhook.json',
    ].map((name) => fixtures.json(name));
    fc.assert(
      fc.property(
        fc.constantFrom(...invoices).chain((body) => mutatedJson(body)),
        (eventBody) => {
          const event = SquareEvent.safeParse(eventBody);
          if (!event.success) return;
          expect(classify(event.data)).toMatchObject({ kind: 'ignore', note: expect.any(String) });
        },
      ),
      { numRuns: 1_000, seed: 20261128 },
    );
  });

  // Square's documented refund.updated with the documented destination fields of a gift-card refund.
  const refundWithDestination = fixtures.json<{ data: { object: { refund: Record<string, unknown> } } }>('refund-updated-completed.json');
  Object.assign(refundWithDestination.data.object.refund, GIFT_CARD_DESTINATION);

  it('a refund: the documented refund.updated (to a gift card) with a few values changed', () => {
    let refunds = 0;
    fc.assert(
      fc.property(mutatedJson(refundWithDestination), (eventBody) => {
        const event = SquareEvent.safeParse(eventBody);
        if (!event.success) return;
        const action = classify(event.data);
        if (action.kind !== 'refund') return;
        refunds += 1;
        const { envelopes, note } = toRefundEnvelopes(event.data, action.refund, 'SALE-ORDER-1', LOCATION, RECEIVED_AT);
        valid(envelopes);
        if (envelopes.length === 0) expect(typeof note).toBe('string');
      }),
      { numRuns: 3_000, seed: 20261128 },
    );
    expect(refunds).toBeGreaterThan(1_000);
  });
});

describe('square catalog items under generated products (property)', () => {
  // One invalid item fails the whole pull (a snapshot with holes would deactivate what it misses):
  // whatever a product holds once the native schema reads it, it maps to a valid catalog item.
  it("every object of Square's documented catalog pages, a few values changed, maps to valid catalog items (a variation whose id cannot key one left out)", () => {
    let mapped = 0;
    fc.assert(
      fc.property(
        fc
          .constantFrom(...[1, 2].flatMap((page) => (fixtures.json(`catalog-list-page-${page}.json`) as { objects: unknown[] }).objects))
          .chain((object) => mutatedJson(object)),
        (body) => {
          const product = SquareCatalogObject.safeParse(body);
          if (!product.success) return;
          mapped += 1;
          for (const item of toCatalogItems(product.data, LOCATION)) expect(catalogItemProblems(item)).toEqual([]);
        },
      ),
      { numRuns: 3_000, seed: 20261128 },
    );
    expect(mapped).toBeGreaterThan(1_000);
  });
});
