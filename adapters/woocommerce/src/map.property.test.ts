import { ODD_JSON_VALUES, catalogItemProblems, envelopeProblems, mutatedJson } from '@loyalty-gateway/core/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { orderEnvelopes, toCatalogItem } from './map.js';
import { WooProduct } from './native.js';
import { fixtures } from './testing/index.js';

const SITE = 'https://shop.example.com/';
const order727 = fixtures.json('order-727.json') as Record<string, unknown>;
const [, order723] = fixtures.json('orders-list.json') as Array<Record<string, unknown>>;
const documented = [
  order727,
  fixtures.json('order-727-update-completed.json'),
  ...(fixtures.json('orders-list.json') as unknown[]),
  ...(fixtures.json('orders-batch.json') as { create: unknown[] }).create,
];
// Every state the lifecycle maps, each assembled in test code from the documented order 727 and
// order 723's documented refund entries (WooCommerce documents none of them): refunded in part,
// refunded in full (status refunded, its automatic refund), a refund deleted (refunded, no refunds),
// cancelled and failed after payment, on-hold and pending after payment.
const states = [
  { ...order727, refunds: order723!.refunds },
  { ...order727, status: 'refunded', refunds: [{ id: 735, reason: 'Order fully refunded.', total: '-29.35' }] },
  { ...order727, status: 'refunded', refunds: [] },
  { ...order727, status: 'cancelled', refunds: order723!.refunds },
  { ...order727, status: 'failed' },
  { ...order727, status: 'on-hold' },
  { ...order727, status: 'pending' },
];

/** What the door and the ledger need of one mapping: valid envelopes, or a note; the list of reversals first, naming each reversal. */
function checkMapping(body: unknown) {
  const { envelopes, note } = orderEnvelopes(body, SITE);
  for (const envelope of envelopes) expect(envelopeProblems(envelope)).toEqual([]);
  if (envelopes.length === 0) expect(typeof note).toBe('string');
  const listed = envelopes.filter((e) => e.eventType === 'refunds.listed');
  expect(listed.length).toBeLessThanOrEqual(1);
  if (listed[0]) {
    expect(envelopes[0]).toBe(listed[0]);
    const reversed = envelopes.flatMap((e) => (e.eventType === 'sale.refunded' ? [e.refund.id] : []));
    expect(listed[0].refundIds).toEqual(reversed);
    // A reversal is never later than the state that lists it (the ledger compares the two).
    for (const e of envelopes) if (e.eventType === 'sale.refunded') expect(e.occurredAt).toBe(listed[0].occurredAt);
  }
  return envelopes;
}

describe('woocommerce map under generated orders (property)', () => {
  // The door answers 500 for an envelope the canonical schema refuses (a mapping bug): whatever a
  // store's order holds, the mapping returns envelopes the schema takes, or a note.
  it("every envelope it returns passes the canonical schema; what it cannot map is a note, never a throw (WooCommerce's documented orders and every lifecycle state, a few values changed)", () => {
    const kinds = new Set<string>();
    fc.assert(
      fc.property(
        fc.constantFrom(...documented, ...states).chain((order) => mutatedJson(order)),
        (body) => {
          for (const e of checkMapping(body)) kinds.add(e.eventType);
        },
      ),
      { numRuns: 5_000, seed: 20261128 },
    );
    expect([...kinds].sort()).toEqual(['refunds.listed', 'sale.completed', 'sale.refunded']);
  });

  it('whatever the billing contact fields hold (email, phone, country), the sale is kept and its customer is one the schema takes, or none', () => {
    const odd = fc.oneof(fc.constantFrom(...ODD_JSON_VALUES), fc.string(), fc.jsonValue({ maxDepth: 1 }), fc.emailAddress());
    const phone = fc.oneof(odd, fc.stringMatching(/^\+?[\d ()\-.]{0,20}( ?(x|ext\.?) ?\d{1,4})?$/));
    const country = fc.oneof(odd, fc.constantFrom('US', 'BR', 'GB', 'us', 'ZZ', 'USA'));
    const customers = new Set<string>();
    fc.assert(
      fc.property(fc.record({ email: odd, phone, country }, { requiredKeys: [] }), (billing) => {
        const envelopes = checkMapping({ ...order727, billing });
        expect(envelopes.map((e) => e.eventType)).toEqual(['refunds.listed', 'sale.completed']);
        const sale = envelopes[1]!;
        customers.add(sale.eventType === 'sale.completed' ? (sale.transaction.customer?.type ?? 'walk-in') : '?');
      }),
      { numRuns: 3_000, seed: 20261128 },
    );
    expect([...customers].sort()).toEqual(['email', 'phone', 'walk-in']);
  });
});

describe('woocommerce catalog items under generated products (property)', () => {
  // One invalid item fails the whole pull (a snapshot with holes would deactivate what it misses):
  // whatever a product holds once the native schema reads it, it maps to a valid catalog item.
  it('every product WooCommerce documents, a few values changed, maps to a valid catalog item', () => {
    let mapped = 0;
    fc.assert(
      fc.property(
        fc.constantFrom(...(fixtures.json('products-list.json') as unknown[])).chain((product) => mutatedJson(product)),
        (body) => {
          const product = WooProduct.safeParse(body);
          if (!product.success) return;
          mapped += 1;
          expect(catalogItemProblems(toCatalogItem(product.data))).toEqual([]);
        },
      ),
      { numRuns: 3_000, seed: 20261128 },
    );
    expect(mapped).toBeGreaterThan(1_000);
  });
});
