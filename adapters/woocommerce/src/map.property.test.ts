import { Envelope } from '@loyalty-gateway/core';
import { mutatedJson } from '@loyalty-gateway/core/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { orderEnvelopes } from './map.js';
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
          for (const envelope of envelopes) expect(Envelope.safeParse(envelope).error?.issues).toBeUndefined();
          if (envelopes.length === 0) expect(typeof note).toBe('string');
        },
      ),
      { numRuns: 5_000, seed: 20261128 },
    );
  });
});
