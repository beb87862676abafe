import { catalogItemProblems, envelopeProblems, mutatedJson } from '@loyalty-gateway/core/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toCatalogItems, toEnvelopes } from './map.js';
import { CloverItem, CloverOrder } from './native.js';
import { fixtures } from './testing/index.js';

const paid = fixtures.json<Record<string, unknown> & { payments: { elements: Array<Record<string, unknown>> } }>('order-paid.json');
const card = paid.payments.elements[0]!;
/** Clover's documented customer (customer.json: emails and phones) on the order, so every contact field is generated too. */
const withContacts = { ...paid, customers: { elements: [fixtures.json('customer.json')] } };
/**
 * Money states no public document shows whole, built from documented parts as in
 * map-lifecycle.test.ts: the documented card payment voided (Yipyy's measured shape), in `payments`
 * and in `voids`; a split tender; a refund with the SDK's `status`; a credit with
 * docs.clover.com's credit-response-reference fields.
 */
const voidedCard = {
  ...card,
  result: 'VOIDED',
  voidReason: 'USER_CANCEL',
  voidPaymentRef: { id: 'PAYBVJT2ABCRS' },
  refunds: { elements: [] },
};
const assembled = [
  { ...withContacts, paymentState: 'REFUNDED', payments: { elements: [voidedCard] }, refunds: { elements: [] } },
  { ...paid, paymentState: 'OPEN', payments: { elements: [] }, voids: { elements: [voidedCard] } },
  {
    ...withContacts,
    payType: 'SPLIT_CUSTOM',
    payments: {
      elements: [
        { ...card, id: 'PAYAVJT2ABCRS', amount: 2000 },
        { ...card, id: 'PAYBVJT2ABCRS', amount: 1834, result: 'AUTH' },
      ],
    },
    refunds: { elements: [{ id: 'RF9VJT2ABCRSC', amount: 500, createdTime: 1_537_970_995_000, status: 'PENDING', voided: false }] },
    credits: {
      elements: [
        {
          id: 'CRDVJT2ABCRSC',
          orderRef: { id: 'GHIVJT2ABCRSC' },
          amount: 300,
          taxAmount: 0,
          createdTime: 1_537_970_996_000,
          result: 'SUCCESS',
        },
      ],
    },
  },
];
const documented = [
  paid,
  withContacts,
  fixtures.json('order-refunded.json'),
  fixtures.json('order-open-no-payment-state.json'),
  ...(fixtures.json('orders-listing-split.json') as { elements: unknown[] }).elements,
  ...assembled,
];
const unit = { merchantId: 'XYZVJT2ZRRRSC', objectId: 'O:CLOVERORDER1', type: 'UPDATE', ts: 1_700_000_000_000 };

describe('clover map under generated orders (property)', () => {
  // The door answers 500 for an envelope the canonical schema refuses (a mapping bug): whatever a
  // fetched order holds once its schema reads it, the mapping returns envelopes the schema takes,
  // or a note. (An answer the order schema cannot read fails the fetch-back: logged, retried.)
  it("every envelope it returns passes the featured schema; what it cannot map is a note (Clover's documented orders and assembled money states, a few values changed)", () => {
    let mapped = 0;
    let reversing = 0;
    fc.assert(
      fc.property(
        fc.constantFrom(...documented).chain((order) => mutatedJson(order)),
        fc.constantFrom(unit.ts, 0, Number.MAX_SAFE_INTEGER),
        (body, ts) => {
          const order = CloverOrder.safeParse(body);
          if (!order.success) return;
          mapped += 1;
          const { envelopes, note } = toEnvelopes(order.data, { ...unit, ts });
          for (const envelope of envelopes) expect(envelopeProblems(envelope)).toEqual([]);
          if (envelopes.length === 0) {
            expect(typeof note).toBe('string');
            return;
          }
          // The order's whole state: its refunds.listed first, naming exactly the reversals that follow,
          // each no later than the state (so a later state can give it back), all of this one order.
          const [listed, ...rest] = envelopes;
          expect(listed?.eventType).toBe('refunds.listed');
          const reversals = rest.flatMap((e) => (e.eventType === 'sale.refunded' ? [e] : []));
          expect(listed?.eventType === 'refunds.listed' && listed.refundIds).toEqual(reversals.map((r) => r.refund.id));
          for (const r of reversals) expect(Date.parse(r.occurredAt)).toBeLessThanOrEqual(Date.parse(listed!.occurredAt));
          expect(new Set(envelopes.map((e) => e.transaction.id))).toEqual(new Set([order.data.id]));
          expect(new Set(envelopes.map((e) => e.eventId)).size).toBe(envelopes.length);
          if (reversals.length > 0) reversing += 1;
        },
      ),
      { numRuns: 5_000, seed: 20261128 },
    );
    expect(mapped).toBeGreaterThan(2_500); // most changed orders still read, so the mapping is what is tested
    expect(reversing).toBeGreaterThan(1_000); // and the reversal rules are reached
  });
});

describe('clover catalog items under generated products (property)', () => {
  // One invalid item fails the whole pull (a snapshot with holes would deactivate what it misses):
  // whatever a product holds once the native schema reads it, it maps to a valid catalog item.
  it("every item of Clover's documented inventory pages, a few values changed, maps to a valid catalog item or, its id unusable as a key, is left out", () => {
    let mapped = 0;
    fc.assert(
      fc.property(
        fc
          .constantFrom(...[1, 2].flatMap((page) => (fixtures.json(`items-page-${page}.json`) as { elements: unknown[] }).elements))
          .chain((item) => mutatedJson(item)),
        (body) => {
          const product = CloverItem.safeParse(body);
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
