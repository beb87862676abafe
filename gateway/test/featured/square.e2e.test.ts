import { adapter as square } from '@loyalty-gateway/adapter-square';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openFeaturedGateway, type FeaturedGateway } from '../../src/testing/featured-gateway.js';
import {
  MEMBERS,
  SQUARE_LOCATION,
  SQUARE_NOTIFICATION_URL,
  SQUARE_SIGNATURE_KEY,
  featuredSeedDocument,
} from '../../src/testing/featured-seed.js';
import { adapterFixture, adapterFixtureJson, vendorSignature } from '../../src/testing/native-fixtures.js';
import { startRecordedVendorServer, type RecordedVendorServer } from '@loyalty-gateway/core/testing';

const dialects = process.env.DATABASE_URL ? (['sqlite', 'postgres'] as const) : (['sqlite'] as const);
const ORDER_ID = '03O3USaPaAaFnI6kkwB1JxGgBsUZY';
const order = adapterFixtureJson('square', 'order-retrieve.json') as { order: Record<string, unknown> };
const payment = adapterFixture('square', 'payment-updated-completed.json');
const member = MEMBERS.square.membershipId;

/** The payment fixture with strings replaced (another order, another status), to be signed afresh. */
const variant = (...pairs: Array<[string, string]>) =>
  Buffer.from(pairs.reduce((text, [from, to]) => text.replace(from, to), payment.toString('utf8')));

describe.each(dialects)('Square end to end through /webhooks/square (%s)', (dialect) => {
  let api: RecordedVendorServer;
  let gw: FeaturedGateway;
  beforeAll(async () => {
    api = await startRecordedVendorServer();
    api.route(`/v2/orders/${ORDER_ID}`, { body: order });
    api.route('/v2/customers/JDKYHBWT1D4F8MFH63DBMEN8Y4', { body: adapterFixtureJson('square', 'customer-retrieve.json') });
    gw = await openFeaturedGateway({ seedDocument: featuredSeedDocument({ squareApi: api.baseUrl }), dialect });
  });
  afterAll(async () => {
    await gw.close();
    await api.close();
  });

  // Square signs the subscription's notification URL + the body; the gateway uses settings.notificationUrl.
  const post = (body: Buffer, signature = vendorSignature(square.defaultAuth, SQUARE_SIGNATURE_KEY, SQUARE_NOTIFICATION_URL, body)) =>
    gw.app.inject({
      method: 'POST',
      url: '/webhooks/square',
      headers: { 'content-type': 'application/json', ...signature },
      payload: body,
    });

  it('payment.updated COMPLETED, fetched back from the recorded API, sent twice, earns once', async () => {
    const first = await post(payment);
    expect(first.statusCode).toBe(200);
    const [result] = first.json().results;
    expect(result).toMatchObject({
      storeId: SQUARE_LOCATION,
      transactionId: ORDER_ID,
      eventType: 'sale.completed',
      status: 'processed',
      membershipId: member,
    });
    expect(result.pointsEarned).toBeGreaterThan(0);
    expect(api.seen.filter((r) => r.path === `/v2/orders/${ORDER_ID}`)[0]?.headers.authorization).toBe('Bearer EAAA-fake-token');
    const again = await post(payment);
    expect(again.statusCode).toBe(200);
    expect(again.json().results[0]).toMatchObject({ status: 'duplicate', pointsEarned: 0 });
    expect(await gw.balance(member)).toBe(result.pointsEarned);
  });

  it('a signature over another URL or with another key is 401 bad_signature', async () => {
    const before = await gw.balance(member);
    const otherUrl = await post(
      payment,
      vendorSignature(square.defaultAuth, SQUARE_SIGNATURE_KEY, 'http://localhost/webhooks/square', payment),
    );
    expect(otherUrl.statusCode).toBe(401);
    expect(otherUrl.json()).toMatchObject({ code: 'bad_signature' });
    const otherKey = await post(payment, vendorSignature(square.defaultAuth, 'not-the-key', SQUARE_NOTIFICATION_URL, payment));
    expect(otherKey.json()).toMatchObject({ statusCode: 401, code: 'bad_signature' });
    expect(await gw.balance(member)).toBe(before);
  });

  it('a payment that is not COMPLETED is 200 with nothing earned', async () => {
    const before = await gw.balance(member);
    const approved = variant(['"status": "COMPLETED"', '"status": "APPROVED"'], ['6a8f5f28-54a1', 'aaaaaaaa-54a1']);
    const response = await post(approved);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ status: 'accepted', results: [], skipped: [] });
    expect(response.json().notes).toHaveLength(1);
    expect(await gw.balance(member)).toBe(before);
  });

  it('the test notification is a handshake: 200, recorded for the operator', async () => {
    const body = adapterFixture('square', 'webhooks-test-notification.json');
    const response = await post(body);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ status: 'handshake' });
    const notes = await gw.notes.listVendorNotes('square');
    expect(notes[0]).toMatchObject({ vendor: 'square', value: 'ac3ac95b-f97d-458c-a6e6-18981597e05f' });
  });

  it("a fetch-back 503 (after the webhook budget's two attempts) is 503 vendor_api_unavailable, nothing earned; the redelivery earns", async () => {
    const before = await gw.balance(member);
    api.route('/v2/orders/ORDER-2', { body: { order: { ...order.order, id: 'ORDER-2' } } });
    api.script('/v2/orders/ORDER-2', { status: 503, body: { errors: [] } }, { status: 503, body: { errors: [] } });
    const second = variant([ORDER_ID, 'ORDER-2'], ['6a8f5f28-54a1', 'bbbbbbbb-54a1']);
    const failed = await post(second);
    expect(failed.statusCode).toBe(503);
    expect(failed.json()).toMatchObject({ statusCode: 503, code: 'vendor_api_unavailable' });
    expect(api.seen.filter((r) => r.path === '/v2/orders/ORDER-2')).toHaveLength(2); // the webhook budget allows two attempts
    expect(await gw.balance(member)).toBe(before);

    const redelivered = await post(second);
    expect(redelivered.statusCode).toBe(200);
    const [result] = redelivered.json().results;
    expect(result).toMatchObject({ transactionId: 'ORDER-2', status: 'processed' });
    expect(await gw.balance(member)).toBe(before + result.pointsEarned);
  });

  it("a documented refund.updated (its order_id is the refund's own order) reverses the sale found through its payment: partial, then full", async () => {
    // A sale of its own (a fresh order), refunded in part and then in full.
    const SALE_ORDER = 'ORDER-REFUNDED';
    api.route(`/v2/orders/${SALE_ORDER}`, { body: { order: { ...order.order, id: SALE_ORDER } } });
    const sold = variant([ORDER_ID, SALE_ORDER], ['6a8f5f28-54a1', 'eeeeeeee-54a1']);
    const saleEvent = JSON.parse(sold.toString('utf8')) as { data: { object: { payment: Record<string, unknown> } } };
    const before = await gw.balance(member);
    const earned = (await post(sold)).json().results[0];
    expect(earned).toMatchObject({ transactionId: SALE_ORDER, status: 'processed' });
    expect(earned.pointsEarned).toBeGreaterThan(0);
    // GetPayment answers the Payment object: the one this sale's payment.updated carried.
    const paymentId = saleEvent.data.object.payment.id as string;
    api.route(`/v2/payments/${paymentId}`, { body: { payment: saleEvent.data.object.payment } });

    // Square's documented refund.updated, moved to this sale's payment and location; its order_id
    // (haOyDuHiqtAXMk0d8pDKXpL7Jg4F, the refund's own order) is kept as Square sends it.
    const documented = adapterFixture('square', 'refund-updated-completed.json').toString('utf8');
    const refundOf = (...pairs: Array<[string, string]>) =>
      Buffer.from(
        [
          ['"NAQ1FHV6ZJ8YV"', `"${SQUARE_LOCATION}"`],
          ['"payment_id": "KkAkhdMsgzn59SM8A89WgKwekxLZY"', `"payment_id": "${paymentId}"`],
          ...pairs,
        ].reduce((text, [from, to]) => text.replaceAll(from!, to!), documented),
      );
    const partial = refundOf(['"amount": 1000', '"amount": 250'], ['_ptNBVqHYxt5g', '_partialRefund'], ['bc316346-6691', 'ffffffff-6691']);
    const [first] = (await post(partial)).json().results;
    expect(first).toMatchObject({ eventType: 'sale.refunded', transactionId: SALE_ORDER, status: 'processed' });
    expect(first.pointsReversed).toBe(Math.floor((earned.pointsEarned * 250) / 550));
    expect(api.seen.some((r) => r.path === `/v2/payments/${paymentId}` && r.headers.authorization === 'Bearer EAAA-fake-token')).toBe(true);

    const full = refundOf();
    const [second] = (await post(full)).json().results;
    expect(second).toMatchObject({ eventType: 'sale.refunded', transactionId: SALE_ORDER, status: 'processed' });
    expect(first.pointsReversed + second.pointsReversed).toBe(earned.pointsEarned);
    expect((await post(full)).json().results[0]).toMatchObject({ status: 'duplicate', pointsReversed: 0 });
    expect(await gw.balance(member)).toBe(before);
  });

  it('stored settings with a key this build does not know (left by an older build) still serve: the key is ignored, not a 500', async () => {
    const current = (await gw.store.getVendor('square'))!.settings!;
    await gw.store.setVendorSettings('square', { ...current, legacyOption: 'from an older build' });
    try {
      api.route('/v2/orders/ORDER-3', { body: { order: { ...order.order, id: 'ORDER-3' } } });
      const response = await post(variant([ORDER_ID, 'ORDER-3'], ['6a8f5f28-54a1', 'cccccccc-54a1']));
      expect(response.statusCode).toBe(200);
      expect(response.json().results[0]).toMatchObject({ transactionId: 'ORDER-3', status: 'processed' });
    } finally {
      await gw.store.setVendorSettings('square', current);
    }
  });
});
