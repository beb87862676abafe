import { catalogItemProblems, envelopeProblems, mutatedJson } from '@loyalty-gateway/core/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toCatalogItems, toEnvelopes } from './map.js';
import { CloverItem, CloverOrder } from './native.js';
import { fixtures } from './testing/index.js';

const documented = [fixtures.json('order-paid.json'), fixtures.json('order-refunded.json')];
const unit = { merchantId: 'XYZVJT2ZRRRSC', objectId: 'O:CLOVERORDER1', type: 'UPDATE', ts: 1_700_000_000_000 };

describe('clover map under generated orders (property)', () => {
  // The door answers 500 for an envelope the canonical schema refuses (a mapping bug): whatever a
  // fetched order holds once its schema reads it, the mapping returns envelopes the schema takes,
  // or a note. (An answer the order schema cannot read fails the fetch-back: logged, retried.)
  it("every envelope it returns passes the canonical schema; what it cannot map is a note (Clover's documented orders, a few values changed)", () => {
    let mapped = 0;
    fc.assert(
      fc.property(
        fc.constantFrom(...documented).chain((order) => mutatedJson(order)),
        (body) => {
          const order = CloverOrder.safeParse(body);
          if (!order.success) return;
          mapped += 1;
          const { envelopes, note } = toEnvelopes(order.data, unit);
          for (const envelope of envelopes) expect(envelopeProblems(envelope)).toEqual([]);
          if (envelopes.length === 0) expect(typeof note).toBe('string');
        },
      ),
      { numRuns: 5_000, seed: 20261128 },
    );
    expect(mapped).toBeGreaterThan(2_500); // most changed orders still read, so the mapping is what is tested
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
