import { GatewayError } from '@loyalty-gateway/core';
import { adapterKit, catalogItemProblems, mutatedJson } from '@loyalty-gateway/core/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { adapter } from './index.js';
import { toCatalogItems } from './map.js';
import { ShopifyVariantNode } from './native.js';
import { fixtures } from './testing/index.js';

const kit = adapterKit(adapter, { settings: { appSecret: 'shpss_test_app_secret' }, now: () => new Date('2025-08-01T12:00:00Z') });
const documented = [
  { topic: 'orders/paid', body: fixtures.json('orders-paid.json') },
  { topic: 'refunds/create', body: fixtures.json('refunds-create.json') },
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
