import { catalogItemProblems, envelopeProblems, mutatedJson } from '@loyalty-gateway/core/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { orderEnvelopes, toCatalogItem } from './map.js';
import { WooProduct } from './native.js';
import { fixtures } from './testing/index.js';

const SITE = 'https://shop.example.com/';
const documented = [fixtures.json('order-727.json'), ...(fixtures.json('orders-list.json') as unknown[])];

describe('woocommerce map under generated orders (property)', () => {
  // The door answers 500 for an envelope the canonical schema refuses (a mapping bug): whatever a
  // store's order holds, the mapping returns envelopes the schema takes, or a note.
  it("every envelope it returns passes the canonical schema; what it cannot map is a note, never a throw (WooCommerce's documented orders, a few values changed)", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...documented).chain((order) => mutatedJson(order)),
        (body) => {
          const { envelopes, note } = orderEnvelopes(body, SITE);
          for (const envelope of envelopes) expect(envelopeProblems(envelope)).toEqual([]);
          if (envelopes.length === 0) expect(typeof note).toBe('string');
        },
      ),
      { numRuns: 5_000, seed: 20261128 },
    );
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
