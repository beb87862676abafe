import { createHttpClient, VendorApiError } from '@loyalty-gateway/core';
import { adapterKit, type RecordedReply, type RecordedVendorServer } from '@loyalty-gateway/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { adapter } from './index.js';
import { fixtures, startSquareApi } from './testing/index.js';

const NOTIFICATION_URL = 'https://loyalty.example.com/webhooks/square';
const ORDER_PATH = '/v2/orders/03O3USaPaAaFnI6kkwB1JxGgBsUZY';
const CUSTOMER_PATH = '/v2/customers/JDKYHBWT1D4F8MFH63DBMEN8Y4';
const ORDER_ID = '03O3USaPaAaFnI6kkwB1JxGgBsUZY';
const order = fixtures.json('order-retrieve.json');
const customer = fixtures.json('customer-retrieve.json');
const paymentBody = fixtures.bytes('payment-updated-completed.json');

let server: RecordedVendorServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function kitWith(routes: Record<string, RecordedReply[]>) {
  server = await startSquareApi(routes);
  // core's real client; its waits are recorded and not made, so the Retry-After wait is asserted without waiting.
  const waits: number[] = [];
  const http = createHttpClient({
    timeoutMs: 2000,
    baseDelayMs: 5,
    realWaitMs: (ms) => {
      waits.push(ms);
      return 0;
    },
  });
  const kit = adapterKit(adapter, {
    settings: {
      signatureKey: 'sq-signature-key',
      notificationUrl: NOTIFICATION_URL,
      apiBaseUrl: server.baseUrl,
      squareVersion: '2025-01-23',
    },
    credentials: { accessToken: 'EAAA-fake-token' },
    url: NOTIFICATION_URL,
    http,
  });
  return { kit, seen: server.seen, waits };
}

/** A fixture body with one string replaced, re-signed by the kit (for edge cases). */
const variant = (name: string, from: string, to: string) => fixtures.bytes(name).toString('utf8').replace(from, to);

const expectedSale = {
  eventId: '6a8f5f28-54a1-4eb0-a98a-3111513fd4fc',
  eventType: 'sale.completed',
  occurredAt: '2020-11-22T21:19:00.901Z',
  store: { id: 'S8GWD5R9QB376' },
  transaction: {
    id: ORDER_ID,
    total: 5.5,
    currency: 'USD',
    channel: 'pos',
    customer: { type: 'email', value: 'test.buyer@example.com' },
    items: [
      { name: 'Item 1', quantity: 1, unitPrice: 5 },
      { name: 'Item 2', quantity: 2, unitPrice: 3 },
    ],
    discountCodes: [{ code: '50% Off', amount: 5.5, type: 'percentage' }],
  },
};

describe('payment.updated COMPLETED → fetch the order (and customer) → sale.completed', () => {
  it('maps the signed fixture to the exact envelope, fetching back with the connection token', async () => {
    const { kit, seen } = await kitWith({ [ORDER_PATH]: [{ body: order }], [CUSTOMER_PATH]: [{ body: customer }] });
    const request = kit.signed(paymentBody);
    expect(kit.authenticate(request)).toEqual({ ok: true });
    expect(await kit.envelopes(request)).toEqual({ handshake: null, stores: ['S8GWD5R9QB376'], envelopes: [expectedSale], notes: [] });
    expect(seen.map((r) => r.url)).toEqual([ORDER_PATH, CUSTOMER_PATH]);
    for (const r of seen) expect(r.headers).toMatchObject({ authorization: 'Bearer EAAA-fake-token', 'square-version': '2025-01-23' });
  });

  it('retries the order fetch through a 429 with Retry-After and a 503', async () => {
    const { kit, seen, waits } = await kitWith({
      [ORDER_PATH]: [
        { status: 429, headers: { 'retry-after': '1' }, body: { errors: [{ code: 'RATE_LIMITED' }] } },
        { status: 503, body: {} },
        { body: order },
      ],
      [CUSTOMER_PATH]: [{ body: customer }],
    });
    expect((await kit.envelopes(kit.signed(paymentBody))).envelopes).toEqual([expectedSale]);
    expect(waits).toEqual([1000, 10]);
    expect(seen.map((r) => r.url)).toEqual([ORDER_PATH, ORDER_PATH, ORDER_PATH, CUSTOMER_PATH]);
  });

  it('takes the buyer email from the payment and skips the Customers API', async () => {
    const { kit, seen } = await kitWith({ [ORDER_PATH]: [{ body: order }] });
    const body = variant(
      'payment-updated-completed.json',
      '"source_type": "CARD",',
      '"source_type": "CARD", "buyer_email_address": "receipt.buyer@example.com",',
    );
    const { envelopes } = await kit.envelopes(kit.signed(body));
    expect(envelopes).toEqual([
      { ...expectedSale, transaction: { ...expectedSale.transaction, customer: { type: 'email', value: 'receipt.buyer@example.com' } } },
    ]);
    expect(seen.map((r) => r.url)).toEqual([ORDER_PATH]);
  });

  it('keeps the sale as a walk-in when the customer profile is gone (404)', async () => {
    const { kit } = await kitWith({ [ORDER_PATH]: [{ body: order }] });
    const { envelopes } = await kit.envelopes(kit.signed(paymentBody));
    const { customer: _dropped, ...walkIn } = expectedSale.transaction;
    expect(envelopes).toEqual([{ ...expectedSale, transaction: walkIn }]);
  });

  it('fails (so Square redelivers) when the order cannot be fetched', async () => {
    const { kit } = await kitWith({ [ORDER_PATH]: [{ status: 500, body: {} }] });
    await expect(kit.envelopes(kit.signed(paymentBody))).rejects.toBeInstanceOf(VendorApiError);
  });

  it('an event_id the ledger cannot key as sent (over 255 characters, a NUL) is 400 invalid_native_payload naming event_id; nothing is fetched', async () => {
    const { kit, seen } = await kitWith({});
    for (const eventId of ['e'.repeat(256), 'evt\u0000']) {
      // JSON.stringify writes the NUL as the \u0000 escape Square would send.
      const body = variant('payment-updated-completed.json', '"6a8f5f28-54a1-4eb0-a98a-3111513fd4fc"', JSON.stringify(eventId));
      await expect(kit.envelopes(kit.signed(body))).rejects.toMatchObject({
        code: 'invalid_native_payload',
        statusCode: 400,
        fields: [expect.objectContaining({ path: 'event_id' })],
      });
    }
    expect(seen).toEqual([]);
  });

  it('maps an order whose paid total is 0 to zero envelopes with a note', async () => {
    const free = JSON.parse(JSON.stringify(order)) as { order: { total_money: { amount: number } } };
    free.order.total_money.amount = 0;
    const { kit } = await kitWith({ [ORDER_PATH]: [{ body: free }], [CUSTOMER_PATH]: [{ body: customer }] });
    expect(await kit.envelopes(kit.signed(paymentBody))).toMatchObject({
      envelopes: [],
      notes: [`Square order ${ORDER_ID} has no paid total > 0: nothing to earn`],
    });
  });

  it('refuses the fixture under a wrong key or once tampered with', async () => {
    const { kit } = await kitWith({});
    const wrongKey = adapterKit(adapter, {
      settings: { signatureKey: 'another-key', notificationUrl: NOTIFICATION_URL },
      credentials: { accessToken: 't' },
      url: NOTIFICATION_URL,
    });
    expect(kit.authenticate(wrongKey.signed(paymentBody))).toMatchObject({ ok: false, reason: 'bad_signature' });
    const signed = kit.signed(paymentBody);
    const tampered = { ...signed, rawBody: Buffer.from(variant('payment-updated-completed.json', '"amount": 550', '"amount": 55000')) };
    expect(kit.authenticate(tampered)).toMatchObject({ ok: false, reason: 'bad_signature' });
    expect(kit.authenticate(kit.unsigned(paymentBody))).toMatchObject({ ok: false, reason: 'missing_credentials' });
  });
});

describe('refunds', () => {
  const REFUND_ID = 'KkAkhdMsgzn59SM8A89WgKwekxLZY_ptNBVqHYxt5gAdfcobBe4u1AZsXhoz06KTtuq9Ls24P';
  const PAYMENT_PATH = '/v2/payments/KkAkhdMsgzn59SM8A89WgKwekxLZY';
  const refundEnvelope = (saleId: string) => ({
    eventId: 'bc316346-6691-4243-88ed-6d651a0d0c47',
    eventType: 'sale.refunded',
    occurredAt: '2020-02-06T22:14:16.381Z',
    store: { id: 'NAQ1FHV6ZJ8YV' },
    transaction: { id: saleId, currency: 'USD' },
    refund: { id: REFUND_ID, amount: 10 },
  });

  it("refund.updated COMPLETED reverses the sale of its PAYMENT (GetPayment → order_id), not refund.order_id (the refund's own order)", async () => {
    const { kit, seen } = await kitWith({ [PAYMENT_PATH]: [{ body: fixtures.json('payment-retrieve.json') }] });
    expect(await kit.envelopes(kit.signed(fixtures.bytes('refund-updated-completed.json')))).toEqual({
      handshake: null,
      stores: ['NAQ1FHV6ZJ8YV'],
      // payment-retrieve.json is Square's GetPayment example: its order d7eKah653Z579f3gVtjlxpSlmUcZY is the sale.
      envelopes: [refundEnvelope('d7eKah653Z579f3gVtjlxpSlmUcZY')],
      notes: [],
    });
    expect(seen.map((r) => [r.method, r.path, r.headers.authorization])).toEqual([['GET', PAYMENT_PATH, 'Bearer EAAA-fake-token']]);
  });

  it("without a payment id, the refund's own order names the sale in returns[].source_order_id", async () => {
    const ownOrder = {
      order: {
        ...(order as { order: object }).order,
        id: 'haOyDuHiqtAXMk0d8pDKXpL7Jg4F',
        returns: [{ uid: 'uid2', source_order_id: 'source_order_id0' }],
      },
    };
    const { kit } = await kitWith({ '/v2/orders/haOyDuHiqtAXMk0d8pDKXpL7Jg4F': [{ body: ownOrder }] });
    const noPayment = variant('refund-updated-completed.json', '"payment_id": "KkAkhdMsgzn59SM8A89WgKwekxLZY",', '');
    expect((await kit.envelopes(kit.signed(noPayment))).envelopes).toEqual([refundEnvelope('source_order_id0')]);
  });

  it('a payment or order id that is not a Square id (a dot segment) is never fetched: 200 with a note', async () => {
    const { kit, seen } = await kitWith({});
    const dotted = variant('refund-updated-completed.json', '"payment_id": "KkAkhdMsgzn59SM8A89WgKwekxLZY"', '"payment_id": ".."');
    const answer = await kit.envelopes(kit.signed(dotted));
    expect(answer.envelopes).toEqual([]);
    expect(answer.notes).toEqual([expect.stringContaining('refund.updated carried no refund object')]);
    expect(seen).toEqual([]);
  });

  it('a refund the payment lookup cannot answer (503) fails the unit: Square redelivers', async () => {
    const { kit } = await kitWith({ [PAYMENT_PATH]: [{ status: 503, body: {} }] });
    await expect(kit.envelopes(kit.signed(fixtures.bytes('refund-updated-completed.json')))).rejects.toBeInstanceOf(VendorApiError);
  });

  it('accepts a PENDING refund.created without acting', async () => {
    const { kit } = await kitWith({});
    expect(await kit.envelopes(kit.signed(fixtures.bytes('refund-created-pending.json')))).toEqual({
      handshake: null,
      stores: ['NAQ1FHV6ZJ8YV'],
      envelopes: [],
      notes: [expect.stringMatching(/is PENDING: only COMPLETED refunds reverse$/)],
    });
  });
});

describe('events answered 200 without acting', () => {
  it.each(['APPROVED', 'PENDING', 'FAILED', 'CANCELED'])('payment.updated %s: a note, no API call', async (status) => {
    const { kit, seen } = await kitWith({});
    const body = variant('payment-updated-completed.json', '"status": "COMPLETED"', `"status": "${status}"`);
    expect(await kit.envelopes(kit.signed(body))).toMatchObject({
      envelopes: [],
      notes: [`Square payment hYy9pRFVxpDsO1FB05SunFWUe9JZY is ${status}: only COMPLETED payments earn`],
    });
    expect(seen).toEqual([]);
  });

  it('refund.updated FAILED and an event type we do not handle', async () => {
    const { kit } = await kitWith({});
    const failed = variant('refund-updated-completed.json', '"status": "COMPLETED"', '"status": "FAILED"');
    expect((await kit.envelopes(kit.signed(failed))).notes).toEqual([
      'Square refund KkAkhdMsgzn59SM8A89WgKwekxLZY_ptNBVqHYxt5gAdfcobBe4u1AZsXhoz06KTtuq9Ls24P is FAILED: only COMPLETED refunds reverse (a reversal already made for it stands: Square documents no change from COMPLETED)',
    ]);
    const other = variant('payment-updated-completed.json', '"type": "payment.updated"', '"type": "catalog.version.updated"');
    expect(await kit.envelopes(kit.signed(other))).toMatchObject({
      envelopes: [],
      notes: ['Square event type catalog.version.updated is not acted on'],
    });
  });
});
