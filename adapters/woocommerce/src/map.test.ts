import { describe, expect, it } from 'vitest';
import { orderEnvelopes, toCatalogItem } from './map.js';
import { WooProduct } from './native.js';
import { fixtures } from './testing/index.js';

const order727 = fixtures.json('order-727.json') as Record<string, unknown>;
const [, order723] = fixtures.json('orders-list.json') as Array<Record<string, unknown>>;
const SITE = 'https://shop.example.com/';

describe('woocommerce map (pure: REST v3 order → canonical)', () => {
  it('maps the documented paid order (processing, date_paid set) to one sale.completed', () => {
    expect(orderEnvelopes(order727, SITE)).toEqual({
      envelopes: [
        {
          eventId: '727:paid',
          eventType: 'sale.completed',
          occurredAt: '2017-03-22T19:28:08.000Z',
          store: { id: SITE },
          transaction: {
            id: '727',
            total: 29.35,
            currency: 'USD',
            channel: 'web',
            customer: { type: 'email', value: 'john.doe@example.com' },
            items: [
              { id: '93', name: 'Woo Single #1', quantity: 2, unitPrice: 3 },
              { id: '22', name: 'Ship Your Idea &ndash; Color: Black, Size: M Test', sku: 'Bar3', quantity: 1, unitPrice: 12 },
            ],
          },
        },
      ],
    });
  });

  it('maps each refunds[] entry (negative total) to a sale.refunded of that amount, keyed by the refund id', () => {
    // No WooCommerce document shows a paid order with refunds: order 727 with order 723's documented refund entries.
    const refunded = { ...order727, refunds: order723!.refunds };
    const { envelopes } = orderEnvelopes(refunded, SITE);
    expect(envelopes.map((e) => [e.eventType, e.transaction.id, e.eventType === 'sale.refunded' ? e.refund : null])).toEqual([
      ['sale.completed', '727', null],
      ['sale.refunded', '727', { id: '726', amount: 10 }],
      ['sale.refunded', '727', { id: '724', amount: 9 }],
    ]);
  });

  it('the documented completed order with date_paid null earns nothing, but its refunds are still reported', () => {
    const { envelopes, note } = orderEnvelopes(order723, SITE);
    expect(envelopes.map((e) => e.eventType)).toEqual(['sale.refunded', 'sale.refunded']);
    expect(note).toBe('order 723 is completed, not paid: nothing to earn');
  });

  it('pending, on-hold, cancelled and failed orders earn nothing (200 with a note: WooCommerce disables a failing webhook)', () => {
    for (const status of ['pending', 'on-hold', 'cancelled', 'failed']) {
      expect(orderEnvelopes({ ...order727, status }, SITE)).toEqual({ envelopes: [], note: `order 727 is ${status}: nothing to earn` });
    }
    expect(orderEnvelopes({ ...order727, total: '0.00' }, SITE).note).toBe(
      'order 727 total "0.00" is not a positive amount: nothing to earn',
    );
    expect(orderEnvelopes({ id: 727 }, SITE)).toEqual({
      envelopes: [],
      note: 'unreadable WooCommerce order (status Invalid input: expected string, received undefined): nothing to do',
    });
  });

  it("an order whose currency is not a three-letter code earns and reverses nothing: 200 with a note, never an envelope the canonical schema refuses (found by the featured doors' fuzz: it was a 500)", () => {
    for (const currency of ['', 'US', 'DOLLARS', '12$']) {
      expect(orderEnvelopes({ ...order727, currency, refunds: [{ id: 9, total: '-1.00' }] }, SITE)).toEqual({
        envelopes: [],
        note: `order 727 currency "${currency}" is not a three-letter currency code: nothing to do`,
      });
    }
    expect(orderEnvelopes({ ...order727, currency: ' usd ' }, SITE).envelopes[0]).toMatchObject({ transaction: { currency: 'USD' } });
  });

  it('a refund of 0 or of an unreadable amount reverses nothing (never a whole-sale reversal by accident)', () => {
    const { envelopes, note } = orderEnvelopes(
      {
        ...order727,
        refunds: [
          { id: 9, total: '0.00' },
          { id: 10, total: '-1.234' },
        ],
      },
      SITE,
    );
    expect(envelopes.map((e) => e.eventType)).toEqual(['sale.completed']);
    expect(note).toBe(
      'refund 9 total "0.00" is not an amount to reverse: skipped; refund 10 total "-1.234" is not an amount to reverse: skipped',
    );
  });

  it('maps the documented products: price left out when empty, active when published and purchasable', () => {
    const products = (fixtures.json('products-list.json') as unknown[]).map((p) => toCatalogItem(WooProduct.parse(p)));
    expect(products).toEqual([
      { externalId: '799', name: 'Ship Your Idea', category: 'Clothing', isActive: false },
      { externalId: '794', name: 'Premium Quality', category: 'Clothing', price: 21.99, isActive: true },
    ]);
  });
});
