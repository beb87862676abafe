import { adapterKit, type RecordedVendorServer } from '@loyalty-gateway/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_EXPANSIONS_PER_CALL } from './api.js';
import { adapter } from './index.js';
import { fixtures, startCloverApi } from './testing/index.js';

const XYZ = '/v3/merchants/XYZVJT2ZRRRSC';
const MNO = '/v3/merchants/MNOVJT2ZRRRSC';
let server: RecordedVendorServer;

beforeAll(async () => {
  server = await startCloverApi();
  server.route(`${XYZ}/orders/GHIVJT2ABCRSC`, { status: 200, body: fixtures.json('order-paid.json') });
  server.route(`${XYZ}/customers/CUSTVJT2ABCRS`, { status: 200, body: fixtures.json('customer.json') });
  server.route(`${XYZ}/orders/ABCVJTABCRRSC`, { status: 200, body: fixtures.json('order-refunded.json') });
  server.route(`${MNO}/orders/OPNVJT2ABCRSC`, { status: 200, body: fixtures.json('order-open.json') });
  server.route(`${MNO}/orders/GONVJT2ABCRSC`, { status: 404, body: fixtures.json('not-found.json') });
  // The batch's P: notification: the payment (Clover's documented PREAUTH/SUCCESS payment) names an order Clover no longer has.
  server.route(`${MNO}/payments/PAYVJT2ABCRSC`, { status: 200, body: fixtures.json('payment-preauth-success.json') });
  server.route(`${MNO}/orders/4AR0997254A7P`, { status: 404, body: fixtures.json('not-found.json') });
  // Clover throttles, then fails once: the client must retry through both.
  server.script(`${XYZ}/orders/GHIVJT2ABCRSC`, { status: 429, headers: { 'retry-after': '1' }, body: { message: 'Too Many Requests' } });
  server.script(`${XYZ}/orders/ABCVJTABCRRSC`, { status: 503, body: { message: 'Service Unavailable' } });
});
afterAll(() => server.close());

const kit = () =>
  adapterKit(adapter, {
    settings: { authCode: '0307e264-b33a-4913-88aa-37b10014a0b8', apiBaseUrl: server.baseUrl },
    credentials: { accessToken: 'fake-oauth-access-token' },
  });

const sale = {
  eventId: 'XYZVJT2ZRRRSC:O:GHIVJT2ABCRSC:1537970958000',
  eventType: 'sale.completed',
  occurredAt: '2018-09-26T14:09:50.000Z',
  store: { id: 'XYZVJT2ZRRRSC' },
  transaction: {
    id: 'GHIVJT2ABCRSC',
    total: 38.34,
    currency: 'USD',
    channel: 'pos',
    customer: { type: 'email', value: 'jane.doe@example.com' },
    items: [
      { id: '9J1F7WW503CZW', name: 'Caesar Salad', quantity: 1, unitPrice: 12 },
      { id: '9J1F7WW503CZW', name: 'Caesar Salad', quantity: 1, unitPrice: 12 },
      { id: 'KXW0EV58FA88A', name: 'Apple', quantity: 1, unitPrice: 12.13 },
      { id: 'ZKSKN4F9B7Q94', name: 'Test_Item', sku: '024463061095', quantity: 1, unitPrice: 8 },
    ],
    discountCodes: [
      { code: 'LOYAL-5OFF', amount: 5, type: 'fixed_amount' },
      { code: 'Happy Hour', type: 'percentage' },
    ],
  },
};

/** The refunded order's sale (a walk-in: the order names no customer), keyed on its order id. */
const refundedSale = {
  eventId: 'XYZVJT2ZRRRSC:O:ABCVJTABCRRSC:1536156558000',
  eventType: 'sale.completed',
  occurredAt: '2018-09-05T12:21:40.000Z',
  store: { id: 'XYZVJT2ZRRRSC' },
  transaction: {
    id: 'ABCVJTABCRRSC',
    total: 21.5,
    currency: 'USD',
    channel: 'pos',
    items: [
      { id: '9J1F7WW503CZW', name: 'Caesar Salad', quantity: 1, unitPrice: 12 },
      { id: 'ZKSKN4F9B7Q94', name: 'Test_Item', quantity: 1, unitPrice: 8 },
    ],
  },
};

/** Each fetched order's refunds.listed: the reversals its state lists, as of its modifiedTime. */
const listed = (merchant: string, orderId: string, ts: number, occurredAt: string, refundIds: string[]) => ({
  eventId: `${merchant}:O:${orderId}:${ts}:listed`,
  eventType: 'refunds.listed',
  occurredAt,
  store: { id: merchant },
  transaction: { id: orderId },
  refundIds,
});

const refund = (id: string, amount: number, occurredAt: string) => ({
  eventId: `XYZVJT2ZRRRSC:O:ABCVJTABCRRSC:1536156558000:${id}`,
  eventType: 'sale.refunded',
  occurredAt,
  store: { id: 'XYZVJT2ZRRRSC' },
  transaction: { id: 'ABCVJTABCRRSC', currency: 'USD' },
  refund: { id, amount },
});

describe('Clover webhook: signed notification batch in, envelopes out', () => {
  it('maps a multi-merchant batch through fetch-back, retrying a 429 and a 503', async () => {
    const k = kit();
    const request = k.signed(fixtures.text('webhook-notification.json'));
    expect(k.authenticate(request)).toEqual({ ok: true });

    const out = await k.envelopes(request);
    expect(out.handshake).toBeNull();
    expect(out.stores).toEqual(['XYZVJT2ZRRRSC', 'XYZVJT2ZRRRSC', ...Array(5).fill('MNOVJT2ZRRRSC')]);
    expect(out.envelopes).toEqual([
      listed('XYZVJT2ZRRRSC', 'GHIVJT2ABCRSC', 1537970958000, '2018-09-26T14:09:51.000Z', []),
      sale,
      // Every fetched order starts with its refunds.listed; the refunded order's sale comes next
      // (its PAID notification may have been missed), then its refunds (RF2 is voided: not listed).
      listed('XYZVJT2ZRRRSC', 'ABCVJTABCRRSC', 1536156558000, '2018-09-05T14:09:18.000Z', ['RF1VJT2ABCRSC', 'RF3VJT2ABCRSC']),
      refundedSale,
      refund('RF1VJT2ABCRSC', 6.5, '2018-09-05T14:08:20.000Z'),
      refund('RF3VJT2ABCRSC', 3.25, '2018-09-05T14:09:10.000Z'),
      listed('MNOVJT2ZRRRSC', 'OPNVJT2ABCRSC', 1537971000000, '2021-07-02T13:47:50.000Z', []),
    ]);
    expect(out.notes).toEqual([
      'order OPNVJT2ABCRSC payment state is OPEN (0.00 of 8.00 received): not paid in full, nothing to earn yet',
      'order 4AR0997254A7P no longer exists at Clover: nothing to do',
      'UPDATE of I:ITMVJT2ABCRSC ignored: only orders (O:) and payments (P:) are read',
      'order DELVJT2ABCRSC was deleted: nothing to do',
      'order GONVJT2ABCRSC no longer exists at Clover: nothing to do',
    ]);
  });

  it("fetched with the bearer token and at most three expansions per call (Clover's limit), retrying once each", () => {
    const paid = server.seen.filter((r) => r.path === `${XYZ}/orders/GHIVJT2ABCRSC`);
    const refunded = server.seen.filter((r) => r.path === `${XYZ}/orders/ABCVJTABCRRSC`);
    expect(paid).toHaveLength(3); // two calls, one retried through the scripted 429
    expect(refunded).toHaveLength(3); // two calls, one retried through the scripted 503
    for (const r of [...paid, ...refunded]) {
      expect(r.headers.authorization).toBe('Bearer fake-oauth-access-token');
      expect(r.query.get('expand')!.split(',').length).toBeLessThanOrEqual(MAX_EXPANSIONS_PER_CALL);
    }
    expect(new Set(paid.map((r) => r.query.get('expand')))).toEqual(new Set(['lineItems,customers,discounts', 'payments,refunds,credits']));
    const customer = server.seen.filter((r) => r.path === `${XYZ}/customers/CUSTVJT2ABCRS`);
    expect(customer.map((r) => r.query.get('expand'))).toEqual(['emailAddresses,phoneNumbers']);
    // Nothing is fetched for DELETEs and objects other than orders and payments.
    expect(server.seen.some((r) => r.path.includes('DELVJT2ABCRSC') || r.path.includes('ITMVJT2ABCRSC'))).toBe(false);
    // The payment is read without expansions (it names its order), then its order as for an O: notification.
    expect(server.seen.filter((r) => r.path === `${MNO}/payments/PAYVJT2ABCRSC`).map((r) => r.query.get('expand'))).toEqual([null]);
    expect(server.seen.filter((r) => r.path === `${MNO}/orders/4AR0997254A7P`)).toHaveLength(2);
  });

  it("a P: notification maps the payment's order exactly as an O: one would, under the notification's own eventIds", async () => {
    // Clover's documented payment (community post 2856) names order 4AR0997254A7P; Clover answers
    // that order as its documented paid order (order-paid.json with that id: assembled).
    const payment = fixtures.json<{ order: { id: string } }>('payment-preauth-success.json');
    server.route(`${XYZ}/payments/1EHM0794D17YM`, { body: payment });
    server.route(`${XYZ}/orders/${payment.order.id}`, { body: { ...fixtures.json<object>('order-paid.json'), id: payment.order.id } });
    const k = kit();
    const notify = (objectId: string) =>
      k.signed(JSON.stringify({ appId: 'DRKVJT2ZRRRSC', merchants: { XYZVJT2ZRRRSC: [{ objectId, type: 'UPDATE', ts: 1537971001000 }] } }));
    const byPayment = await k.envelopes(notify('P:1EHM0794D17YM'));
    const byOrder = await k.envelopes(notify(`O:${payment.order.id}`));
    expect(byPayment.envelopes.map((e) => [e.eventType, e.transaction.id, e.eventId])).toEqual([
      ['refunds.listed', '4AR0997254A7P', 'XYZVJT2ZRRRSC:P:1EHM0794D17YM:1537971001000:listed'],
      ['sale.completed', '4AR0997254A7P', 'XYZVJT2ZRRRSC:P:1EHM0794D17YM:1537971001000'],
    ]);
    const withoutEventId = (e: { eventId: string }) => ({ ...e, eventId: undefined });
    expect(byPayment.envelopes.map(withoutEventId)).toEqual(byOrder.envelopes.map(withoutEventId));
  });

  it('a P: notification whose payment Clover no longer has, or which names no order, is a note', async () => {
    server.route(`${XYZ}/payments/NOPAYVJT2ABCR`, { status: 404, body: fixtures.json('not-found.json') });
    server.route(`${XYZ}/payments/ORPHVJT2ABCRS`, { body: { id: 'ORPHVJT2ABCRS', amount: 100, result: 'SUCCESS' } });
    const k = kit();
    const out = await k.envelopes(
      k.signed(
        JSON.stringify({
          appId: 'DRKVJT2ZRRRSC',
          merchants: {
            XYZVJT2ZRRRSC: [
              { objectId: 'P:NOPAYVJT2ABCR', type: 'UPDATE', ts: 1 },
              { objectId: 'P:ORPHVJT2ABCRS', type: 'CREATE', ts: 2 },
              { objectId: 'P:../orders', type: 'CREATE', ts: 3 },
            ],
          },
        }),
      ),
    );
    expect(out.envelopes).toEqual([]);
    expect(out.notes).toEqual([
      'payment NOPAYVJT2ABCR no longer exists at Clover: nothing to do',
      'payment ORPHVJT2ABCRS names no Clover order: nothing to do',
      'CREATE of P:../orders for merchant XYZVJT2ZRRRSC ignored: not a Clover id (never fetched)',
    ]);
  });

  it('gives the same eventIds when Clover retries the same notification', async () => {
    const k = kit();
    const body = fixtures.text('webhook-notification.json');
    const first = await k.envelopes(k.signed(body));
    const again = await k.envelopes(k.signed(body));
    expect(again.envelopes.map((e) => e.eventId)).toEqual(first.envelopes.map((e) => e.eventId));
  });

  it('refuses a wrong or missing X-Clover-Auth', () => {
    const k = kit();
    const body = fixtures.text('webhook-notification.json');
    expect(k.authenticate(k.unsigned(body, { 'X-Clover-Auth': 'not-the-auth-code' }))).toMatchObject({
      ok: false,
      reason: 'bad_signature',
    });
    expect(k.authenticate(k.unsigned(body))).toMatchObject({ ok: false, reason: 'missing_credentials' });
  });

  it('lets a fetch-back failure that is not a 404 surface, so the delivery is retried', async () => {
    server.script(`${XYZ}/orders/GHIVJT2ABCRSC`, ...Array.from({ length: 6 }, () => ({ status: 500 })));
    const k = kit();
    const body = JSON.stringify({
      appId: 'DRKVJT2ZRRRSC',
      merchants: { XYZVJT2ZRRRSC: [{ objectId: 'O:GHIVJT2ABCRSC', type: 'UPDATE', ts: 1 }] },
    });
    await expect(k.envelopes(k.signed(body))).rejects.toMatchObject({ name: 'VendorApiError', status: 500 });
  });

  it('an order answer the order schema cannot read is a vendor API failure naming the URL (the door: 503, retried), not a mapping error (500)', async () => {
    server.route(`${XYZ}/orders/BADVJT2ABCRSC`, { body: { id: 'BADVJT2ABCRSC', total: 'not cents', paymentState: 'PAID' } });
    const k = kit();
    const body = JSON.stringify({
      appId: 'DRKVJT2ZRRRSC',
      merchants: { XYZVJT2ZRRRSC: [{ objectId: 'O:BADVJT2ABCRSC', type: 'UPDATE', ts: 1 }] },
    });
    await expect(k.envelopes(k.signed(body))).rejects.toMatchObject({
      name: 'VendorApiError',
      status: 200,
      retryable: false,
      message: expect.stringMatching(/^Clover answered an order the adapter cannot read: total /),
    });
  });

  it('an object or merchant id that is not a Clover id (O:.., a dot segment) is never fetched: a note, nothing called', async () => {
    const k = kit();
    const before = server.seen.length;
    const body = JSON.stringify({
      appId: 'DRKVJT2ZRRRSC',
      merchants: {
        XYZVJT2ZRRRSC: [
          { objectId: 'O:..', type: 'UPDATE', ts: 1 },
          { objectId: 'O:../items', type: 'UPDATE', ts: 2 },
          { objectId: 'O:ghivjt2abcrsc', type: 'UPDATE', ts: 3 },
        ],
      },
    });
    const answer = await k.envelopes(k.signed(body));
    expect(answer.envelopes).toEqual([]);
    expect(answer.notes).toEqual([
      'UPDATE of O:.. for merchant XYZVJT2ZRRRSC ignored: not a Clover id (never fetched)',
      'UPDATE of O:../items for merchant XYZVJT2ZRRRSC ignored: not a Clover id (never fetched)',
      'UPDATE of O:ghivjt2abcrsc for merchant XYZVJT2ZRRRSC ignored: not a Clover id (never fetched)',
    ]);
    expect(server.seen.length).toBe(before);
  });
});
