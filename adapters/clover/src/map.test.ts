import { Envelope, type FeaturedEnvelope } from '@loyalty-gateway/core';
import { envelopeProblems } from '@loyalty-gateway/core/testing';
import { describe, expect, it } from 'vitest';
import type { CloverUnit } from './auth.js';
import { currencyOf, eventIdOf, toCatalogItem, toEnvelopes } from './map.js';
import { orderIdOf } from './map-unit.js';
import { CloverOrder } from './native.js';
import { fixtures } from './testing/index.js';

const unit: CloverUnit = { merchantId: 'XYZVJT2ZRRRSC', objectId: 'O:GHIVJT2ABCRSC', type: 'UPDATE', ts: 1537970958000 };
const paid = () => CloverOrder.parse(fixtures.json('order-paid.json'));
const refunded = () => CloverOrder.parse(fixtures.json('order-refunded.json'));
/** The envelopes after the order's refunds.listed, which every fetched order starts with. */
const afterListed = (envelopes: FeaturedEnvelope[]) => {
  expect(envelopes[0]?.eventType).toBe('refunds.listed');
  return envelopes.slice(1);
};

describe('toEnvelopes: paymentState decides', () => {
  it('maps a PAID order (as fetched, no contact lookup) to its refunds.listed (none) and one strict sale.completed', () => {
    const { envelopes, note } = toEnvelopes(paid(), unit);
    expect(note).toBeUndefined();
    expect(envelopes).toHaveLength(2);
    expect(envelopes[0]).toEqual({
      eventId: 'XYZVJT2ZRRRSC:O:GHIVJT2ABCRSC:1537970958000:listed',
      eventType: 'refunds.listed',
      occurredAt: '2018-09-26T14:09:51.000Z', // the order's modifiedTime
      store: { id: 'XYZVJT2ZRRRSC' },
      transaction: { id: 'GHIVJT2ABCRSC' },
      refundIds: [],
    });
    const [sale] = afterListed(envelopes).map((e) => Envelope.parse(e));
    expect(sale).toMatchObject({ eventType: 'sale.completed', transaction: { id: 'GHIVJT2ABCRSC', total: 38.34, currency: 'USD' } });
    expect(sale?.eventType === 'sale.completed' && sale.transaction.customer).toBeUndefined();
  });

  it('maps REFUNDED like PARTIALLY_REFUNDED: the sale, then one sale.refunded per usable refund', () => {
    const { envelopes } = toEnvelopes({ ...refunded(), paymentState: 'REFUNDED' }, unit);
    expect(envelopes[0]).toMatchObject({ eventType: 'refunds.listed', refundIds: ['RF1VJT2ABCRSC', 'RF3VJT2ABCRSC'] });
    expect(afterListed(envelopes).map((e) => [e.eventType, e.eventId, e.eventType === 'sale.refunded' ? e.refund : null])).toEqual([
      ['sale.completed', 'XYZVJT2ZRRRSC:O:GHIVJT2ABCRSC:1537970958000', null],
      ['sale.refunded', 'XYZVJT2ZRRRSC:O:GHIVJT2ABCRSC:1537970958000:RF1VJT2ABCRSC', { id: 'RF1VJT2ABCRSC', amount: 6.5 }],
      ['sale.refunded', 'XYZVJT2ZRRRSC:O:GHIVJT2ABCRSC:1537970958000:RF3VJT2ABCRSC', { id: 'RF3VJT2ABCRSC', amount: 3.25 }],
    ]);
  });

  it('a refunded order whose sale notification was missed earns first: its sale.completed, keyed on the order id, precedes the refunds', () => {
    // Clover's first delivery of this order came after a partial refund (or the PAID one was lost).
    const { envelopes, note } = toEnvelopes(refunded(), unit);
    expect(note).toBeUndefined();
    const parsed = afterListed(envelopes).map((e) => Envelope.parse(e));
    expect(parsed.map((e) => e.eventType)).toEqual(['sale.completed', 'sale.refunded', 'sale.refunded']);
    // The same transaction id as the PAID notification's sale, so the ledger dedupes it when it was earned.
    expect(parsed.every((e) => e.transaction.id === 'ABCVJTABCRRSC')).toBe(true);
    const [sale] = parsed;
    expect(sale).toMatchObject({
      eventType: 'sale.completed',
      occurredAt: '2018-09-05T12:21:40.000Z', // the successful payment, not the refund
      transaction: { id: 'ABCVJTABCRRSC', total: 21.5, currency: 'USD', channel: 'pos' },
    });
    // The refunded line is still part of the sale: the refund reverses points, not the sale's lines.
    expect(sale?.eventType === 'sale.completed' && sale.transaction.items.map((i) => i.name)).toEqual(['Caesar Salad', 'Test_Item']);
    // The same mapping as a PAID order of the same content: earning late earns the same.
    expect(afterListed(toEnvelopes({ ...refunded(), paymentState: 'PAID' }, unit).envelopes)[0]).toEqual(parsed[0]);
  });

  it("a refunded order with a total not > 0 still reverses its refunds, with the sale's note", () => {
    expect(toEnvelopes({ ...refunded(), total: 0 }, unit)).toEqual({
      envelopes: [
        expect.objectContaining({ eventType: 'refunds.listed' }),
        expect.objectContaining({ eventType: 'sale.refunded' }),
        expect.objectContaining({ eventType: 'sale.refunded' }),
      ],
      note: 'order ABCVJTABCRRSC is PARTIALLY_REFUNDED but its total is not > 0: nothing to earn',
    });
  });

  it.each([
    ['OPEN', 'order GHIVJT2ABCRSC payment state is OPEN (38.34 of 38.34 received): not paid in full, nothing to earn yet'],
    [
      'PARTIALLY_PAID',
      'order GHIVJT2ABCRSC payment state is PARTIALLY_PAID (38.34 of 38.34 received): not paid in full, nothing to earn yet',
    ],
    ['CREDITED', 'order GHIVJT2ABCRSC payment state is CREDITED (38.34 of 38.34 received): not paid in full, nothing to earn yet'],
    [null, 'order GHIVJT2ABCRSC payment state is unset (38.34 of 38.34 received): not paid in full, nothing to earn yet'],
  ])('accepts %s with no sale and a note saying how much is received (only its refunds.listed)', (paymentState, note) => {
    expect(toEnvelopes({ ...paid(), paymentState }, unit)).toEqual({
      envelopes: [expect.objectContaining({ eventType: 'refunds.listed', refundIds: [] })],
      note,
    });
  });

  it('answers a paid total that is not > 0 with a note', () => {
    expect(toEnvelopes({ ...paid(), total: 0 }, unit)).toEqual({
      envelopes: [expect.objectContaining({ eventType: 'refunds.listed' })],
      note: 'order GHIVJT2ABCRSC is PAID but its total is not > 0: nothing to earn',
    });
    expect(afterListed(toEnvelopes({ ...paid(), total: -100 }, unit).envelopes)).toEqual([]);
  });

  it('ignores test-mode orders and refund states without usable refunds', () => {
    expect(toEnvelopes({ ...paid(), testMode: true }, unit)).toEqual({
      envelopes: [],
      note: 'order GHIVJT2ABCRSC is a Clover test-mode order: ignored',
    });
    const voidedOnly = {
      ...refunded(),
      refunds: { elements: [{ id: 'RF2', amount: 1000, voided: true }, { id: 'RF4', amount: 0 }, { amount: 100 }] },
    };
    // Its refunds.listed names none: whatever was reversed for them is given back.
    expect(toEnvelopes(voidedOnly, unit)).toEqual({
      envelopes: [expect.objectContaining({ eventType: 'refunds.listed', refundIds: [] })],
      note: 'order ABCVJTABCRRSC is PARTIALLY_REFUNDED but lists no usable refund',
    });
  });

  it('falls back to the order time when no successful payment is listed', () => {
    const [sale] = afterListed(toEnvelopes({ ...paid(), payments: { elements: [{ result: 'FAIL', createdTime: 1 }] } }, unit).envelopes);
    expect(sale?.occurredAt).toBe('2018-09-26T14:09:17.000Z');
  });

  it('a notification ts past year 9999, with no time on the order or its refund, still maps (it threw a RangeError: the door answered 500)', () => {
    const order = {
      ...refunded(),
      clientCreatedTime: null,
      createdTime: null,
      modifiedTime: null,
      payments: null,
      refunds: { elements: [{ id: 'RF1VJT2ABCRSC', amount: 650 }] },
    };
    const { envelopes } = toEnvelopes(order, { ...unit, ts: Number.MAX_SAFE_INTEGER });
    expect(envelopes.map((e) => e.eventType)).toEqual(['refunds.listed', 'sale.completed', 'sale.refunded']);
    for (const envelope of envelopes) expect(envelopeProblems(envelope)).toEqual([]);
    expect(new Set(envelopes.map((e) => e.occurredAt))).toEqual(new Set(['9999-12-31T23:59:59.999Z']));
  });
});

describe('identifiers', () => {
  it('builds a stable eventId from merchant, object and ts', () => {
    expect(eventIdOf(unit)).toBe('XYZVJT2ZRRRSC:O:GHIVJT2ABCRSC:1537970958000');
    expect(eventIdOf({ ...unit })).toBe(eventIdOf(unit));
  });

  it("gives every envelope of one notification its own eventId: the sale the notification's, each reversal and the refunds.listed a suffix", () => {
    const ids = toEnvelopes(refunded(), unit).envelopes.map((e) => e.eventId);
    expect(ids).toEqual([
      'XYZVJT2ZRRRSC:O:GHIVJT2ABCRSC:1537970958000:listed',
      'XYZVJT2ZRRRSC:O:GHIVJT2ABCRSC:1537970958000',
      'XYZVJT2ZRRRSC:O:GHIVJT2ABCRSC:1537970958000:RF1VJT2ABCRSC',
      'XYZVJT2ZRRRSC:O:GHIVJT2ABCRSC:1537970958000:RF3VJT2ABCRSC',
    ]);
  });

  it('reads order ids from O: objects only', () => {
    expect(orderIdOf('O:GHIVJT2ABCRSC')).toBe('GHIVJT2ABCRSC');
    expect(orderIdOf('P:GHIVJT2ABCRSC')).toBeNull();
    expect(orderIdOf('OI:X')).toBeNull();
    expect(orderIdOf('O:')).toBeNull();
  });

  it('uses the order currency, USD when missing', () => {
    expect(currencyOf({ id: 'x', currency: 'cad' })).toBe('CAD');
    expect(currencyOf({ id: 'x' })).toBe('USD');
  });
});

describe('toCatalogItem', () => {
  it('maps sku or code, category, price in cents (omitted when 0) and isActive', () => {
    expect(toCatalogItem({ id: 'I1', name: 'Latte', code: '0123', price: 1999, categories: { elements: [{ name: 'Drinks' }] } })).toEqual({
      externalId: 'I1',
      name: 'Latte',
      sku: '0123',
      category: 'Drinks',
      price: 19.99,
      isActive: true,
    });
    expect(toCatalogItem({ id: 'I2', name: 'Open', sku: 'S-2', code: 'C-2', price: 0, hidden: false, available: false })).toEqual({
      externalId: 'I2',
      name: 'Open',
      sku: 'S-2',
      isActive: false,
    });
    expect(toCatalogItem({ id: 'I3', hidden: true })).toEqual({ externalId: 'I3', name: 'I3', isActive: false });
  });
});
