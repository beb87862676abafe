import { Envelope } from '@loyalty-gateway/core';
import { describe, expect, it } from 'vitest';
import { fixtures } from './testing/index.js';
import { classify, firstTimestamp, presentAt, toCatalogItems, toDisputeEnvelopes, toRefundEnvelopes, toSaleEnvelopes } from './map.js';
import { SquareCatalogObject, SquareDispute, SquareEvent, SquareOrder, SquarePayment, SquareRefund } from './native.js';

const event = SquareEvent.parse(fixtures.json('payment-updated-completed.json'));
const payment = SquarePayment.parse((event.data?.object as { payment: unknown }).payment);
const order = SquareOrder.parse(fixtures.json<{ order: unknown }>('order-retrieve.json').order);
const refundEvent = SquareEvent.parse(fixtures.json('refund-updated-completed.json'));
const refund = SquareRefund.parse((refundEvent.data?.object as { refund: unknown }).refund);
const base = { event, storeId: 'S8GWD5R9QB376', payment, order, customer: null, receivedAt: '2026-01-01T00:00:00.000Z' };
const withStatus = (type: string, key: 'payment' | 'refund', status: string) =>
  SquareEvent.parse({ ...event, type, data: { type: key, id: 'X', object: { [key]: { id: 'X', status } } } });

describe('classify', () => {
  it('acts on COMPLETED payment.updated and refund.updated only', () => {
    expect(classify(event)).toEqual({ kind: 'sale', payment });
    expect(classify(refundEvent)).toEqual({ kind: 'refund', refund });
  });

  it.each(['APPROVED', 'PENDING', 'FAILED', 'CANCELED'])('ignores a %s payment with a note', (status) => {
    expect(classify(withStatus('payment.updated', 'payment', status))).toEqual({
      kind: 'ignore',
      note: `Square payment X is ${status}: only COMPLETED payments earn`,
    });
  });

  it('ignores a PENDING refund with a note', () => {
    expect(classify(withStatus('refund.updated', 'refund', 'PENDING'))).toEqual({
      kind: 'ignore',
      note: 'Square refund X is PENDING: only COMPLETED refunds reverse',
    });
  });

  it.each(['FAILED', 'REJECTED'])('ignores a %s refund with a note to log: a reversal already made for it stands', (status) => {
    expect(classify(withStatus('refund.updated', 'refund', status))).toEqual({
      kind: 'ignore',
      note: `Square refund X is ${status}: only COMPLETED refunds reverse (a reversal already made for it stands: Square documents no change from COMPLETED)`,
      warn: true,
    });
  });

  it('treats a COMPLETED payment.created as a sale (cash payments are created COMPLETED)', () => {
    expect(classify(withStatus('payment.created', 'payment', 'COMPLETED'))).toMatchObject({ kind: 'sale' });
    expect(classify(withStatus('payment.created', 'payment', 'APPROVED'))).toMatchObject({ kind: 'ignore' });
  });

  it('a refund.created that is already COMPLETED reverses like refund.updated (a cash refund may never be updated)', () => {
    expect(classify(withStatus('refund.created', 'refund', 'COMPLETED'))).toMatchObject({ kind: 'refund' });
    expect(classify(withStatus('refund.created', 'refund', 'PENDING'))).toMatchObject({
      kind: 'ignore',
      note: expect.stringContaining('only COMPLETED refunds reverse'),
    });
  });

  it('ignores other types and bodies without the object', () => {
    expect(classify(withStatus('catalog.version.updated', 'payment', 'COMPLETED'))).toEqual({
      kind: 'ignore',
      note: 'Square event type catalog.version.updated is not acted on',
    });
    expect(classify(SquareEvent.parse({ type: 'payment.updated', event_id: 'e' }))).toEqual({
      kind: 'ignore',
      note: 'payment.updated carried no payment object',
    });
  });
});

describe('sale envelope', () => {
  it('uses the order id, its total, lines and discounts', () => {
    const { envelopes } = toSaleEnvelopes({ ...base, customer: { phone_number: '+1 212 555 4240' } });
    expect(envelopes).toEqual([
      {
        eventId: '6a8f5f28-54a1-4eb0-a98a-3111513fd4fc',
        eventType: 'sale.completed',
        occurredAt: '2020-11-22T21:19:00.901Z',
        store: { id: 'S8GWD5R9QB376' },
        transaction: {
          id: '03O3USaPaAaFnI6kkwB1JxGgBsUZY',
          total: 5.5,
          currency: 'USD',
          channel: 'pos',
          customer: { type: 'phone', value: '+12125554240' },
          items: [
            { name: 'Item 1', quantity: 1, unitPrice: 5 },
            { name: 'Item 2', quantity: 2, unitPrice: 3 },
          ],
          discountCodes: [{ code: '50% Off', amount: 5.5, type: 'percentage' }],
        },
      },
    ]);
    expect(Envelope.safeParse(envelopes[0]).success).toBe(true);
  });

  it('converts a 1999-cent total exactly and keeps JPY whole', () => {
    const cents = toSaleEnvelopes({ ...base, order: { ...order, total_money: { amount: 1999, currency: 'USD' } } });
    expect(cents.envelopes[0]?.transaction).toMatchObject({ total: 19.99, currency: 'USD' });
    const yen = toSaleEnvelopes({
      ...base,
      order: { ...order, line_items: [], discounts: [], total_money: { amount: 1000, currency: 'JPY' } },
    });
    expect(yen.envelopes[0]?.transaction).toMatchObject({ total: 1000, currency: 'JPY', items: [] });
  });

  it('maps an order whose paid total is not > 0 to nothing, with a note', () => {
    expect(toSaleEnvelopes({ ...base, order: { ...order, total_money: { amount: 0, currency: 'USD' } } })).toEqual({
      envelopes: [],
      note: 'Square order 03O3USaPaAaFnI6kkwB1JxGgBsUZY has no paid total > 0: nothing to earn',
    });
  });

  it('maps a payment without an order to a sale with no items keyed by the payment id', () => {
    const lone = { ...payment, order_id: null, buyer_email_address: 'test.buyer@example.com', total_money: { amount: 7, currency: 'USD' } };
    expect(toSaleEnvelopes({ ...base, payment: lone, order: null }).envelopes[0]?.transaction).toEqual({
      id: 'hYy9pRFVxpDsO1FB05SunFWUe9JZY',
      total: 0.07,
      currency: 'USD',
      channel: 'pos',
      customer: { type: 'email', value: 'test.buyer@example.com' },
      items: [],
    });
  });

  it('falls back from unusable timestamps to the next one', () => {
    expect(firstTimestamp('closed_at', undefined, '2020-02-06T21:27:34.308Z')).toBe('2020-02-06T21:27:34.308Z');
    expect(firstTimestamp('2022-07-13T20:30:59.037339943Z')).toBe('2022-07-13T20:30:59.037339943Z');
    expect(firstTimestamp(null)).toBeNull();
  });
});

describe('refund envelope', () => {
  it("names the sale it was given (resolved through the payment), never the refund's own order", () => {
    // Square's documented refund.updated: its order_id haOyDuHiqtAXMk0d8pDKXpL7Jg4F is the refund's own order.
    expect(refund.order_id).toBe('haOyDuHiqtAXMk0d8pDKXpL7Jg4F');
    expect(
      toRefundEnvelopes(refundEvent, refund, 'd7eKah653Z579f3gVtjlxpSlmUcZY', 'NAQ1FHV6ZJ8YV', base.receivedAt).envelopes[0],
    ).toMatchObject({
      store: { id: 'NAQ1FHV6ZJ8YV' },
      transaction: { id: 'd7eKah653Z579f3gVtjlxpSlmUcZY', currency: 'USD' },
      refund: { id: refund.id, amount: 10 },
    });
  });

  it('ignores a zero refund', () => {
    expect(toRefundEnvelopes(refundEvent, { ...refund, amount_money: { amount: 0, currency: 'USD' } }, 'S', 'L', base.receivedAt)).toEqual({
      envelopes: [],
      note: `Square refund ${refund.id} has no amount > 0: nothing to reverse`,
    });
  });
});

describe('order.updated, invoices and disputes', () => {
  const orderUpdated = SquareEvent.parse(fixtures.json('order-updated-webhook.json'));
  const stub = (state: string) =>
    SquareEvent.parse({ ...orderUpdated, data: { ...orderUpdated.data, object: { order_updated: { order_id: 'O1', state } } } });

  it("order.updated: COMPLETED asks for the order; Square's documented OPEN stub and CANCELED are notes", () => {
    expect(classify(stub('COMPLETED'))).toEqual({ kind: 'order', order: { order_id: 'O1', state: 'COMPLETED' } });
    expect(classify(orderUpdated)).toEqual({
      kind: 'ignore',
      note: 'Square order eA3vssLHKJrv9H0IdJCM3gNqfdcZY is OPEN: an order earns when a payment pays it in full or when it is COMPLETED',
    });
    expect(classify(stub('CANCELED'))).toMatchObject({ kind: 'ignore', note: expect.stringContaining('is CANCELED') });
    expect(classify(SquareEvent.parse({ ...orderUpdated, data: { object: { order_updated: { order_id: '..' } } } }))).toEqual({
      kind: 'ignore',
      note: 'order.updated carried no order_updated object',
    });
  });

  it('an order read back alone (no payment) maps by the same rule: its closed_at, its customer', () => {
    const completed = { ...order, id: 'O1' };
    expect(toSaleEnvelopes({ ...base, payment: null, order: completed, event: stub('COMPLETED') }).envelopes[0]).toMatchObject({
      eventId: orderUpdated.event_id,
      occurredAt: completed.closed_at,
      transaction: { id: 'O1', total: 5.5 },
    });
    expect(
      toSaleEnvelopes({ ...base, payment: null, order: { ...completed, state: 'OPEN', closed_at: null }, event: stub('COMPLETED') }),
    ).toEqual({
      envelopes: [],
      note: 'Square order O1: 0.00 of 5.50 USD received; earns when paid in full',
    });
    expect(toSaleEnvelopes({ ...base, payment: null, order: null })).toEqual({
      envelopes: [],
      note: 'Square named neither a payment nor an order: nothing to earn',
    });
  });

  it("every invoice.* event is a note (Square's documented invoice.payment_made)", () => {
    expect(classify(SquareEvent.parse(fixtures.json('invoice-payment-made-webhook.json')))).toEqual({
      kind: 'ignore',
      note: 'Square invoice.payment_made moves no money by itself: invoice payments arrive as payment.*, their refunds as refund.*',
    });
  });

  const disputeEvent = SquareEvent.parse(fixtures.json('dispute-state-updated-webhook.json'));
  const dispute = SquareDispute.parse((disputeEvent.data?.object as { dispute: unknown }).dispute);

  it('a LOST dispute asks for its payment; its reversal is keyed dispute:<id>, amount = the disputed amount', () => {
    const lost = SquareEvent.parse({
      ...disputeEvent,
      data: { ...disputeEvent.data, object: { dispute: { ...dispute, state: 'LOST' } } },
    });
    expect(classify(lost)).toEqual({
      kind: 'dispute',
      dispute: { ...dispute, state: 'LOST' },
      disputeId: 'ORSEVtZAJxb37RA1EiGw',
      paymentId: 'fbmsaEOpoARDKxiSGH1fqPuqoqFZY',
    });
    expect(toDisputeEnvelopes(lost, dispute, 'ORSEVtZAJxb37RA1EiGw', 'SALE-1', 'VJDQQP3CG14EY', base.receivedAt).envelopes).toEqual([
      {
        eventId: 'e89ff114-1972-4be0-9481-a621f2385fff',
        eventType: 'sale.refunded',
        occurredAt: '2020-02-19T21:34:41.851Z',
        store: { id: 'VJDQQP3CG14EY' },
        transaction: { id: 'SALE-1', currency: 'USD' },
        refund: { id: 'dispute:ORSEVtZAJxb37RA1EiGw', amount: 88.01 },
      },
    ]);
  });

  it('a dispute without an amount > 0, without a payment or without an id reverses nothing', () => {
    expect(toDisputeEnvelopes(disputeEvent, { ...dispute, amount_money: null }, 'D1', 'S', 'L', base.receivedAt)).toEqual({
      envelopes: [],
      note: 'Square dispute D1 has no disputed amount > 0: nothing to reverse',
    });
    const lostWithout = (over: Record<string, unknown>) =>
      classify(SquareEvent.parse({ ...disputeEvent, data: { object: { dispute: { ...dispute, state: 'LOST', ...over } } } }));
    expect(lostWithout({ disputed_payment: null })).toEqual({
      kind: 'ignore',
      note: 'Square dispute ORSEVtZAJxb37RA1EiGw names no disputed payment: nothing to reverse',
    });
    expect(lostWithout({ id: null })).toEqual({ kind: 'ignore', note: 'dispute.state.updated carried a dispute without an id' });
  });
});

describe('catalog items', () => {
  const variation = (id: string, over: Record<string, unknown> = {}) => ({
    type: 'ITEM_VARIATION',
    id,
    present_at_all_locations: true,
    item_variation_data: { name: id, pricing_type: 'FIXED_PRICING', price_money: { amount: 1999, currency: 'USD' } },
    ...over,
  });
  const item = (over: Record<string, unknown>, variations: unknown[]) =>
    SquareCatalogObject.parse({ type: 'ITEM', id: 'I1', present_at_all_locations: true, item_data: { name: 'Cake', variations }, ...over });

  it('gives one entry per variation; a single variation keeps the item name', () => {
    expect(toCatalogItems(item({}, [variation('V1')]), 'L1')).toEqual([{ externalId: 'V1', name: 'Cake', price: 19.99, isActive: true }]);
  });

  it('omits the price of variable-priced variations and deactivates deleted ones', () => {
    const items = toCatalogItems(
      item({}, [
        variation('V1', { item_variation_data: { name: 'Slice', pricing_type: 'VARIABLE_PRICING' } }),
        variation('V2', { is_deleted: true }),
      ]),
      'L1',
    );
    expect(items).toEqual([
      { externalId: 'V1', name: 'Cake (Slice)', isActive: true },
      { externalId: 'V2', name: 'Cake (V2)', price: 19.99, isActive: false },
    ]);
  });

  it("deactivates archived items and items not sold at this connection's location", () => {
    expect(
      toCatalogItems(item({ item_data: { name: 'Cake', is_archived: true, variations: [variation('V1')] } }, []), 'L1')[0]?.isActive,
    ).toBe(false);
    expect(presentAt({ present_at_all_locations: false, present_at_location_ids: ['L2'] }, 'L1')).toBe(false);
    expect(presentAt({ present_at_all_locations: false, present_at_location_ids: ['L1'] }, 'L1')).toBe(true);
    expect(presentAt({ present_at_all_locations: true, absent_at_location_ids: ['L1'] }, 'L1')).toBe(false);
    expect(presentAt({}, 'L1')).toBe(true);
  });

  it('skips non-item objects', () => {
    expect(toCatalogItems(SquareCatalogObject.parse({ type: 'CATEGORY', id: 'C1' }), 'L1')).toEqual([]);
  });
});
