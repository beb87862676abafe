import { catalogItemProblems, envelopeProblems, mutatedJson } from '@loyalty-gateway/core/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classify, toCatalogItems, toRefundEnvelopes, toSaleEnvelopes } from './map.js';
import { SquareCatalogObject, SquareEvent, SquareRetrieveCustomerResponse, SquareRetrieveOrderResponse } from './native.js';
import { fixtures } from './testing/index.js';

const LOCATION = 'S8GWD5R9QB376';
const RECEIVED_AT = '2025-08-01T12:00:00.000Z';
const valid = (envelopes: unknown[]) => {
  for (const envelope of envelopes) expect(envelopeProblems(envelope)).toEqual([]);
};

describe('square map under generated deliveries and fetched objects (property)', () => {
  // The door answers 500 for an envelope the canonical schema refuses (a mapping bug): whatever the
  // webhook and the fetched order and customer hold once their schemas read them, the mapping
  // returns envelopes the schema takes, or a note.
  it('a sale: the documented payment.updated, order and customer, each with a few values changed', () => {
    let sales = 0;
    fc.assert(
      fc.property(
        mutatedJson(fixtures.json('payment-updated-completed.json')),
        mutatedJson(fixtures.json('order-retrieve.json')),
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
          if (envelopes.length === 0) expect(typeof note).toBe('string');
        },
      ),
      { numRuns: 3_000, seed: 20261128 },
    );
    expect(sales).toBeGreaterThan(1_000);
  });

  it('a refund: the documented refund.updated with a few values changed', () => {
    let refunds = 0;
    fc.assert(
      fc.property(mutatedJson(fixtures.json('refund-updated-completed.json')), (eventBody) => {
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
