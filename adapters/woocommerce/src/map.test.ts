import { describe, expect, it } from 'vitest';
import { orderEnvelopes, toCatalogItem } from './map.js';
import { WooProduct } from './native.js';
import { fixtures } from './testing/index.js';

const order727 = fixtures.json('order-727.json') as Record<string, unknown>;
// The same order one state later, as documented ("Update an Order": completed, date_modified 19:30:35).
const completed727 = fixtures.json('order-727-update-completed.json') as Record<string, unknown>;
const [, order723] = fixtures.json('orders-list.json') as Array<Record<string, unknown>>;
const SITE = 'https://shop.example.com/';
const store = { id: SITE };

// WooCommerce documents no paid order with refunds, nor a cancelled, failed, on-hold or refunded
// one: the tests below take the documented paid order 727 and give it order 723's documented
// refund entries (`{ id, refund, total }`, 726 -10.00 and 724 -9.00), another status or another
// date_modified_gmt, in test code.
const documentedRefunds = order723!.refunds as Array<{ id: number; total: string }>;
const refund724 = documentedRefunds[1];
const T = '2017-03-23T10:00:00';
const TISO = '2017-03-23T10:00:00.000Z';
const state = (changes: Record<string, unknown>) => ({ ...completed727, date_modified: T, date_modified_gmt: T, ...changes });
const kinds = (body: unknown) =>
  orderEnvelopes(body, SITE).envelopes.map((e) =>
    e.eventType === 'refunds.listed'
      ? [e.eventType, e.refundIds]
      : e.eventType === 'sale.refunded'
        ? [e.eventType, e.refund]
        : [e.eventType],
  );

describe('woocommerce map (pure: REST v3 order → canonical)', () => {
  it('maps the documented paid order (processing, date_paid set): first the reversals it lists (none), then one sale.completed', () => {
    expect(orderEnvelopes(order727, SITE)).toEqual({
      envelopes: [
        {
          eventId: '727:refunds:2017-03-22T19:28:08.000Z',
          eventType: 'refunds.listed',
          occurredAt: '2017-03-22T19:28:08.000Z',
          store,
          transaction: { id: '727' },
          refundIds: [],
        },
        {
          eventId: '727:paid',
          eventType: 'sale.completed',
          occurredAt: '2017-03-22T19:28:08.000Z',
          store,
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

  it('the documented update of the same order to completed is the same sale (same key, paid at the same time), its state at its own date_modified', () => {
    const [listed, sale] = orderEnvelopes(completed727, SITE).envelopes;
    expect(listed).toMatchObject({ eventType: 'refunds.listed', occurredAt: '2017-03-22T19:30:35.000Z', refundIds: [] });
    expect(sale).toEqual(orderEnvelopes(order727, SITE).envelopes[1]);
  });

  it('maps each refunds[] entry (negative total) to a sale.refunded of that amount keyed by the refund id, at the order state’s date_modified; the list of them first', () => {
    const { envelopes } = orderEnvelopes(state({ refunds: documentedRefunds }), SITE);
    expect(envelopes[0]).toEqual({
      eventId: `727:refunds:${TISO}`,
      eventType: 'refunds.listed',
      occurredAt: TISO,
      store,
      transaction: { id: '727' },
      refundIds: ['726', '724'],
    });
    expect(envelopes.slice(1).map((e) => e.eventType)).toEqual(['sale.completed', 'sale.refunded', 'sale.refunded']);
    expect(envelopes[2]).toEqual({
      eventId: '727:refund:726',
      eventType: 'sale.refunded',
      occurredAt: TISO,
      store,
      transaction: { id: '727', currency: 'USD' },
      refund: { id: '726', amount: 10 },
    });
    expect(envelopes[3]).toMatchObject({ eventId: '727:refund:724', refund: { id: '724', amount: 9 } });
  });

  it('a refund of the shipping only, the tax only or to a gift card is an ordinary refunds[] entry (WooCommerce keeps no kind on it): it reverses its amount', () => {
    // 727's shipping_total is 10.00 and total_tax 1.35: a refund of exactly either is still just `{ id, total }`.
    expect(kinds(state({ refunds: [{ id: 733, reason: '', total: '-10.00' }] }))).toContainEqual([
      'sale.refunded',
      { id: '733', amount: 10 },
    ]);
    expect(kinds(state({ refunds: [{ id: 734, reason: 'Gift card', total: '-1.35' }] }))).toContainEqual([
      'sale.refunded',
      { id: '734', amount: 1.35 },
    ]);
  });

  it('a refund deleted (gone from refunds[], nothing else left behind) is not listed: the ledger gives its reversal back', () => {
    expect(kinds(state({ refunds: [refund724] }))).toEqual([
      ['refunds.listed', ['724']],
      ['sale.completed'],
      ['sale.refunded', { id: '724', amount: 9 }],
    ]);
    // Status refunded with refunds[] empty: its only refund was deleted (issue #68658: the status never changes back).
    expect(orderEnvelopes(state({ status: 'refunded', refunds: [] }), SITE)).toEqual({
      envelopes: [
        { eventId: `727:refunds:${TISO}`, eventType: 'refunds.listed', occurredAt: TISO, store, transaction: { id: '727' }, refundIds: [] },
      ],
      note: 'order 727 is refunded: its refunds[] entries are what is reversed, nothing for the status itself',
    });
  });

  it('status refunded with its automatic refund ("Order fully refunded.", the rest of the total) reverses through that refund, not the status', () => {
    expect(kinds(state({ status: 'refunded', refunds: [{ id: 735, reason: 'Order fully refunded.', total: '-29.35' }] }))).toEqual([
      ['refunds.listed', ['735']],
      ['sale.refunded', { id: '735', amount: 29.35 }],
    ]);
  });

  it('a paid order moved to cancelled or failed reverses all (no amount), keyed by the order and the time of that state; the list names it', () => {
    for (const status of ['cancelled', 'failed']) {
      const { envelopes, note } = orderEnvelopes(state({ status, refunds: [refund724] }), SITE);
      const id = `${status}:727:${TISO}`;
      expect(envelopes).toEqual([
        {
          eventId: `727:refunds:${TISO}`,
          eventType: 'refunds.listed',
          occurredAt: TISO,
          store,
          transaction: { id: '727' },
          refundIds: ['724', id],
        },
        expect.objectContaining({ eventType: 'sale.refunded', refund: { id: '724', amount: 9 } }),
        {
          eventId: `727:${status}:${TISO}`,
          eventType: 'sale.refunded',
          occurredAt: TISO,
          store,
          transaction: { id: '727', currency: 'USD' },
          refund: { id },
        },
      ]);
      expect(note).toBe(`order 727 was paid and is ${status}: its earn is reversed in full (${id})`);
    }
    // Cancelled again after being reopened: another state time, another reversal.
    expect(kinds(state({ status: 'cancelled', date_modified_gmt: '2017-03-24T08:00:00' }))).toEqual([
      ['refunds.listed', ['cancelled:727:2017-03-24T08:00:00.000Z']],
      ['sale.refunded', { id: 'cancelled:727:2017-03-24T08:00:00.000Z' }],
    ]);
  });

  it('reopened (back to processing or completed, date_paid kept): the cancellation is no longer listed, so it is given back; the sale is the one already earned', () => {
    expect(kinds(state({ status: 'processing', refunds: [refund724] }))).toEqual([
      ['refunds.listed', ['724']],
      ['sale.completed'],
      ['sale.refunded', { id: '724', amount: 9 }],
    ]);
  });

  it('on-hold or pending after payment (a dispute opened, a manual change) keeps the earn: only the list of reversals, and a note', () => {
    for (const status of ['on-hold', 'pending']) {
      expect(orderEnvelopes(state({ status }), SITE)).toEqual({
        envelopes: [
          {
            eventId: `727:refunds:${TISO}`,
            eventType: 'refunds.listed',
            occurredAt: TISO,
            store,
            transaction: { id: '727' },
            refundIds: [],
          },
        ],
        note: `order 727 is ${status} after payment: its earn stands until WooCommerce moves the order on (a refund, cancelled or failed, or back to processing/completed)`,
      });
    }
  });

  it('an order never paid (no date_paid) earns nothing and states no reversals: pending, on-hold, cancelled, failed, or a status an extension adds', () => {
    for (const status of ['pending', 'on-hold', 'cancelled', 'failed', 'partially-paid']) {
      expect(orderEnvelopes({ ...order727, status, date_paid: null, date_paid_gmt: null }, SITE)).toEqual({
        envelopes: [],
        note: `order 727 is ${status}, not paid: nothing to earn`,
      });
    }
    expect(orderEnvelopes({ ...order727, status: 'checkout-draft' }, SITE)).toEqual({
      envelopes: [
        {
          eventId: '727:refunds:2017-03-22T19:28:08.000Z',
          eventType: 'refunds.listed',
          occurredAt: '2017-03-22T19:28:08.000Z',
          store,
          transaction: { id: '727' },
          refundIds: [],
        },
      ],
      note: 'order 727 is checkout-draft: nothing to earn',
    });
    expect(orderEnvelopes({ ...order727, total: '0.00' }, SITE).note).toBe(
      'order 727 total "0.00" is not a positive amount: nothing to earn',
    );
  });

  it('the documented completed order with date_paid null earns nothing and states no reversals, but its refunds are still reported', () => {
    const { envelopes, note } = orderEnvelopes(order723, SITE);
    expect(envelopes.map((e) => e.eventType)).toEqual(['sale.refunded', 'sale.refunded']);
    expect(note).toBe('order 723 is completed, not paid: nothing to earn');
  });

  it('a paid order without a readable date_modified_gmt cannot be placed in time: its refunds reverse, nothing is given back and a cancellation waits (a note)', () => {
    const { envelopes, note } = orderEnvelopes(state({ status: 'cancelled', date_modified_gmt: null, refunds: [refund724] }), SITE);
    expect(envelopes).toEqual([expect.objectContaining({ eventType: 'sale.refunded', occurredAt: '2017-03-22T19:28:08.000Z' })]);
    expect(note).toBe(
      'order 727 has no readable date_modified_gmt: the reversals it lists cannot be placed in time, none is given back or added for its status',
    );
  });

  it('the customer is the billing email, else the billing phone in E.164 read in the billing country, else national digits; a contact it cannot use costs the customer, never the sale', () => {
    const customer = (billing: unknown) =>
      orderEnvelopes({ ...order727, billing }, SITE).envelopes.find((e) => e.eventType === 'sale.completed');
    expect(customer({ email: ' john.doe@example.com ', phone: '' })).toMatchObject({
      transaction: { customer: { type: 'email', value: 'john.doe@example.com' } },
    });
    // Documented billing: "phone": "(555) 555-5555" with "country": "US"; and "(11) 1111-1111" with "BR".
    expect(customer({ email: '', phone: '(555) 555-5555', country: 'US' })).toMatchObject({
      transaction: { customer: { type: 'phone', value: '+15555555555' } },
    });
    expect(customer({ email: 'not an email', phone: '(11) 1111-1111', country: 'BR' })).toMatchObject({
      transaction: { customer: { type: 'phone', value: '+551111111111' } },
    });
    expect(customer({ phone: '(555) 555-5555' })).toMatchObject({ transaction: { customer: { type: 'phone', value: '5555555555' } } });
    for (const billing of [{ email: 'a@b.example\u0000', phone: 'call me' }, { email: 7, phone: ['x'], country: {} }, 'billing', null]) {
      const sale = customer(billing);
      expect(sale).toMatchObject({ eventType: 'sale.completed', transaction: { total: 29.35 } });
      expect(sale!.transaction).not.toHaveProperty('customer');
    }
  });

  it('a body that is not an order (the REST error WooCommerce delivers when the webhook user cannot read it, PR #68698 review) is a note', () => {
    // Quoted from the review of woocommerce/woocommerce PR #68698 (an issue thread, not a vendor document).
    const error = { code: 'woocommerce_rest_shop_order_invalid_id', message: 'Invalid ID.', data: { status: 404 } };
    expect(orderEnvelopes(error, SITE)).toEqual({
      envelopes: [],
      note: 'unreadable WooCommerce order (id Invalid input: expected number, received undefined): nothing to do',
    });
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
    expect(orderEnvelopes({ ...order727, currency: ' usd ' }, SITE).envelopes[1]).toMatchObject({ transaction: { currency: 'USD' } });
  });

  it('a refund of 0 or of an unreadable amount reverses nothing and is not listed (never a whole-sale reversal by accident)', () => {
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
    expect(envelopes.map((e) => [e.eventType, e.eventType === 'refunds.listed' ? e.refundIds : null])).toEqual([
      ['refunds.listed', []],
      ['sale.completed', null],
    ]);
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
