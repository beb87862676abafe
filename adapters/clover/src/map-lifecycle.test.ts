import { describe, expect, it } from 'vitest';
import type { CloverUnit } from './auth.js';
import { toEnvelopes } from './map.js';
import { CloverOrder, CloverPayment } from './native.js';
import { fixtures } from './testing/index.js';

/**
 * Every money state of one Clover order, mapped. No public document shows an order with a voided
 * payment, several payments, a refund `status` or a credit, so these states are built here from
 * documented parts, each saying which: the order is Clover's documented paid order (order-paid.json,
 * 38.34, one card payment KJ8ZB8RSHYG58); a voided payment is that Payment with `result: "VOIDED"`
 * and a `voidReason` from the SDK's VoidReason enum, shaped as the one Yipyy measured against the
 * sandbox (`{"result":"VOIDED","voidReason":"USER_CANCEL","refunds":{"elements":[]}}`); further
 * payments take the same documented Payment fields (id, order, amount, tipAmount, result, createdTime).
 */
const unit: CloverUnit = { merchantId: 'XYZVJT2ZRRRSC', objectId: 'O:GHIVJT2ABCRSC', type: 'UPDATE', ts: 1_537_990_000_000 };
const paid = () => CloverOrder.parse(fixtures.json('order-paid.json'));
const card = () => paid().payments!.elements![0]!;
const MODIFIED = '2018-09-26T14:09:51.000Z'; // order-paid.json's modifiedTime

const voided = (payment: CloverPayment): CloverPayment => ({
  ...payment,
  result: 'VOIDED',
  voidReason: 'USER_CANCEL',
  refunds: { elements: [] },
});
const payment = (id: string, amount: number, result = 'SUCCESS'): CloverPayment => ({
  id,
  order: { id: 'GHIVJT2ABCRSC' },
  amount,
  tipAmount: 0,
  result,
  createdTime: 1_537_970_990_000,
});
/** The order with these payments (and its other fields as documented). */
const withPayments = (paymentState: string | null, ...payments: CloverPayment[]): CloverOrder => ({
  ...paid(),
  paymentState,
  payments: { elements: payments },
});
/** What each envelope does, in order: [eventType, refund id and amount, or the refund ids listed]. */
const moves = (order: CloverOrder) =>
  toEnvelopes(order, unit).envelopes.map((e) =>
    e.eventType === 'refunds.listed'
      ? ['listed', e.refundIds]
      : e.eventType === 'sale.refunded'
        ? ['reverse', e.refund.id, e.refund.amount]
        : [e.eventType === 'sale.completed' ? 'earn' : e.eventType, e.transaction.total],
  );

describe('paid in full, in parts, or held', () => {
  it('PAID: refunds.listed (none) first, then the earn of the order total', () => {
    expect(moves(paid())).toEqual([
      ['listed', []],
      ['earn', 38.34],
    ]);
  });

  it('a PAID order paid by a tip-adjustable auth (PREAUTH, result SUCCESS: the payment Clover documents in community post 2856) earns', () => {
    const preauth = CloverPayment.parse(fixtures.json('payment-preauth-success.json'));
    expect(moves({ ...withPayments('PAID', preauth), total: 1500 })).toEqual([
      ['listed', []],
      ['earn', 15],
    ]);
  });

  it('split tender, first tender only (PARTIALLY_PAID): nothing yet, the note says how much is received', () => {
    const order = { ...withPayments('PARTIALLY_PAID', payment('PAYAVJT2ABCRS', 2000)), payType: 'SPLIT_CUSTOM' };
    expect(toEnvelopes(order, unit)).toEqual({
      envelopes: [expect.objectContaining({ eventType: 'refunds.listed', refundIds: [] })],
      note: 'order GHIVJT2ABCRSC payment state is PARTIALLY_PAID (20.00 of 38.34 received): not paid in full, nothing to earn yet',
    });
    // The second tender completes it: earned once, on the whole total.
    expect(moves(withPayments('PAID', payment('PAYAVJT2ABCRS', 2000), payment('PAYBVJT2ABCRS', 1834)))).toEqual([
      ['listed', []],
      ['earn', 38.34],
    ]);
  });

  it('a pre-authorisation hold (result AUTH) is not money: nothing, whatever paymentState says', () => {
    expect(toEnvelopes(withPayments('PAID', payment('PAYHVJT2ABCRS', 3834, 'AUTH')), unit)).toEqual({
      envelopes: [expect.objectContaining({ eventType: 'refunds.listed', refundIds: [] })],
      note: 'order GHIVJT2ABCRSC is PAID (0.00 of 38.34 received (38.34 held by a pre-authorisation)): nothing to earn until it is captured',
    });
    expect(toEnvelopes(withPayments('OPEN', payment('PAYHVJT2ABCRS', 3834, 'AUTH')), unit).note).toBe(
      'order GHIVJT2ABCRSC payment state is OPEN (0.00 of 38.34 received (38.34 held by a pre-authorisation)): not paid in full, nothing to earn yet',
    );
  });

  it('a tip adjusted afterwards changes nothing: the tip is outside the order total (docs.clover.com, calculating order totals)', () => {
    const preauth = CloverPayment.parse(fixtures.json('payment-preauth-success.json'));
    const order = { ...withPayments('PAID', preauth), total: 1500 };
    expect(moves({ ...order, payments: { elements: [{ ...preauth, tipAmount: 300 }] } })).toEqual(moves(order));
  });

  it("Clover's own open order (SDK test asset: no paymentState, no payments): only its refunds.listed, and a note", () => {
    const order = CloverOrder.parse(fixtures.json('order-open-no-payment-state.json'));
    expect(toEnvelopes(order, { ...unit, objectId: 'O:ZK6BEAGXBPGST' })).toEqual({
      envelopes: [
        {
          eventId: 'XYZVJT2ZRRRSC:O:ZK6BEAGXBPGST:1537990000000:listed',
          eventType: 'refunds.listed',
          occurredAt: '2019-01-03T23:49:30.000Z',
          store: { id: 'XYZVJT2ZRRRSC' },
          transaction: { id: 'ZK6BEAGXBPGST' },
          refundIds: [],
        },
      ],
      note: 'order ZK6BEAGXBPGST payment state is unset (0.00 of 15.45 received): not paid in full, nothing to earn yet',
    });
  });
});

describe('voids', () => {
  // Clover documents neither where a voided payment goes nor what paymentState becomes: both
  // places, and every state, map to the same movements.
  const inPayments = (paymentState: string | null) => withPayments(paymentState, voided(card()));
  const inVoids = (paymentState: string | null) => ({ ...withPayments(paymentState), voids: { elements: [voided(card())] } });

  it.each(['PAID', 'OPEN', null])(
    'the only payment voided (paymentState %s), left in payments or moved to voids: its amount reversed, keyed void:<payment id>',
    (state) => {
      const reversal = ['reverse', 'void:KJ8ZB8RSHYG58', 38.34];
      const expected =
        state === 'PAID' ? [['listed', ['void:KJ8ZB8RSHYG58']], ['earn', 38.34], reversal] : [['listed', ['void:KJ8ZB8RSHYG58']], reversal];
      expect(moves(inPayments(state))).toEqual(expected);
      expect(moves(inVoids(state))).toEqual(expected);
    },
  );

  it('listed in both places, it is one void', () => {
    const order = { ...inPayments('OPEN'), voids: { elements: [voided(card())] } };
    expect(moves(order)).toEqual([
      ['listed', ['void:KJ8ZB8RSHYG58']],
      ['reverse', 'void:KJ8ZB8RSHYG58', 38.34],
    ]);
  });

  it('a void Clover records as its own payment pointing back (voidPaymentRef, "and vice versa") is the same void, not two', () => {
    const original = { ...voided(payment('PAYAVJT2ABCRS', 3834)), voidPaymentRef: { id: 'PAYBVJT2ABCRS' } };
    const twin = { ...voided(payment('PAYBVJT2ABCRS', 3834)), voidPaymentRef: { id: 'PAYAVJT2ABCRS' } };
    expect(moves(withPayments('OPEN', twin, original))).toEqual([
      ['listed', ['void:PAYAVJT2ABCRS']],
      ['reverse', 'void:PAYAVJT2ABCRS', 38.34],
    ]);
  });

  it('one tender of a split voided: only its part is reversed', () => {
    const order = withPayments('PARTIALLY_PAID', payment('PAYAVJT2ABCRS', 2000), voided(payment('PAYBVJT2ABCRS', 1834)));
    expect(moves(order)).toEqual([
      ['listed', ['void:PAYBVJT2ABCRS']],
      ['reverse', 'void:PAYBVJT2ABCRS', 18.34],
    ]);
  });

  it('paid again by another payment: no void listed (refunds.listed gives the reversal back), the sale again', () => {
    const { envelopes, note } = toEnvelopes(withPayments('PAID', voided(card()), payment('PAYRVJT2ABCRS', 3834)), unit);
    expect(envelopes.map((e) => e.eventType)).toEqual(['refunds.listed', 'sale.completed']);
    expect(envelopes[0]).toMatchObject({ refundIds: [], occurredAt: MODIFIED });
    expect(note).toBe("payment KJ8ZB8RSHYG58 was voided, but the order's other payments cover its total: nothing to reverse");
  });

  it("a same-day full refund Clover turns into a void (REFUNDED, the payment VOIDED, refunds empty: Yipyy's measurement) reverses it all", () => {
    expect(moves({ ...inPayments('REFUNDED'), refunds: { elements: [] } })).toEqual([
      ['listed', ['void:KJ8ZB8RSHYG58']],
      ['earn', 38.34],
      ['reverse', 'void:KJ8ZB8RSHYG58', 38.34],
    ]);
  });

  it("a void happens at the state's time (the order's modifiedTime): a state read before it, delivered late, cannot give it back", () => {
    const reversal = toEnvelopes(inPayments('OPEN'), unit).envelopes[1];
    expect(reversal).toMatchObject({
      eventType: 'sale.refunded',
      occurredAt: MODIFIED,
      eventId: 'XYZVJT2ZRRRSC:O:GHIVJT2ABCRSC:1537990000000:void:KJ8ZB8RSHYG58',
    });
  });

  it('a void that failed (VOID_FAILED): the payment stands, no reversal', () => {
    expect(moves(withPayments('PAID', { ...card(), result: 'VOID_FAILED' }))).toEqual([
      ['listed', []],
      ['earn', 38.34],
    ]);
  });

  it('a void in flight (VOIDING) waits, with a note; a voided payment without an amount is not reversed as "all of it"', () => {
    expect(toEnvelopes(withPayments('PAID', { ...card(), result: 'VOIDING' }), unit).note).toBe(
      'payment KJ8ZB8RSHYG58 is being voided: reversed once Clover reports it VOIDED',
    );
    const { envelopes, note } = toEnvelopes(withPayments('OPEN', { ...voided(card()), amount: null }), unit);
    expect(envelopes).toEqual([expect.objectContaining({ eventType: 'refunds.listed', refundIds: [] })]);
    expect(note).toContain('voided payment KJ8ZB8RSHYG58 has no usable id or amount: not reversed');
  });
});

describe('refunds and manual refunds (credits)', () => {
  const refund = (fields: Record<string, unknown>) => ({
    id: 'RF9VJT2ABCRSC',
    amount: 1000,
    taxAmount: 0,
    createdTime: 1_537_975_000_000,
    payment: { id: 'KJ8ZB8RSHYG58' },
    ...fields,
  });
  const refunded = (...refunds: Array<Record<string, unknown>>): CloverOrder => ({
    ...paid(),
    paymentState: 'PARTIALLY_REFUNDED',
    modifiedTime: 1_537_980_000_000, // refunding modified the order
    refunds: { elements: refunds },
  });

  it('a refund (status SUCCESS, or none) reverses its amount, keyed on its id, at its own time', () => {
    for (const status of ['SUCCESS', undefined]) {
      const { envelopes } = toEnvelopes(refunded(refund({ status })), unit);
      expect(envelopes[2]).toMatchObject({ occurredAt: '2018-09-26T15:16:40.000Z', refund: { id: 'RF9VJT2ABCRSC', amount: 10 } });
    }
  });

  it('voided (voided: true, status VOIDED), failed or deleted (deletedTime): not listed, so a reversal recorded earlier is given back', () => {
    for (const fields of [{ voided: true }, { status: 'VOIDED' }, { status: 'FAIL' }, { deletedTime: 1_537_979_000_000 }]) {
      expect(moves(refunded(refund(fields)))).toEqual([['listed', []]]);
    }
  });

  it('PENDING: not reversed yet (a note), not listed', () => {
    const { envelopes, note } = toEnvelopes(refunded(refund({ status: 'PENDING' })), unit);
    expect(envelopes.map((e) => e.eventType)).toEqual(['refunds.listed']);
    expect(note).toBe(
      'order GHIVJT2ABCRSC is PARTIALLY_REFUNDED but lists no usable refund; refund RF9VJT2ABCRSC is PENDING: reversed once Clover reports it succeeded',
    );
  });

  it("a refund created after the state's modifiedTime (another clock) happens no later than the state", () => {
    const { envelopes } = toEnvelopes(refunded(refund({ createdTime: 1_600_000_000_000 })), unit);
    expect(envelopes[2]?.occurredAt).toBe('2018-09-26T16:40:00.000Z');
  });

  it('a manual refund (credits: docs.clover.com credit-response-reference fields) reverses its amount, keyed credit:<id>; a voided one is not listed', () => {
    const credit = {
      id: 'CRDVJT2ABCRSC',
      orderRef: { id: 'GHIVJT2ABCRSC' },
      amount: 500,
      taxAmount: 0,
      tipAmount: 0,
      createdTime: 1_537_970_995_000,
    };
    expect(moves({ ...paid(), credits: { elements: [credit] } })).toEqual([
      ['listed', ['credit:CRDVJT2ABCRSC']],
      ['earn', 38.34],
      ['reverse', 'credit:CRDVJT2ABCRSC', 5],
    ]);
    expect(moves({ ...paid(), credits: { elements: [{ ...credit, voided: true }] } })).toEqual([
      ['listed', []],
      ['earn', 38.34],
    ]);
    expect(moves({ ...paid(), credits: { elements: [{ ...credit, result: 'FAIL' }] } })).toEqual([
      ['listed', []],
      ['earn', 38.34],
    ]);
  });

  it('a standalone manual refund (CREDITED, no payments): no sale; its credit is listed and sent, with nothing earned to reverse', () => {
    const credit = { id: 'CRDVJT2ABCRSC', amount: 500, createdTime: 1_537_970_995_000 };
    const { envelopes, note } = toEnvelopes({ ...withPayments('CREDITED'), credits: { elements: [credit] } }, unit);
    expect(envelopes.map((e) => e.eventType)).toEqual(['refunds.listed', 'sale.refunded']);
    expect(note).toBe('order GHIVJT2ABCRSC payment state is CREDITED (0.00 of 38.34 received): not paid in full, nothing to earn yet');
  });

  it('a test-mode order maps to nothing at all, not even a refunds.listed', () => {
    expect(toEnvelopes({ ...paid(), testMode: true }, unit)).toEqual({
      envelopes: [],
      note: 'order GHIVJT2ABCRSC is a Clover test-mode order: ignored',
    });
  });
});
