import { adapter as shopify } from '@loyalty-gateway/adapter-shopify';
import { adapter as square } from '@loyalty-gateway/adapter-square';
import { startRecordedVendorServer, type RecordedVendorServer } from '@loyalty-gateway/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openFeaturedGateway, type FeaturedGateway } from '../../src/testing/featured-gateway.js';
import {
  CLOVER_AUTH_CODE,
  CLOVER_MERCHANT,
  MEMBERS,
  SHOP_DOMAIN,
  SHOPIFY_APP_SECRET,
  SQUARE_NOTIFICATION_URL,
  SQUARE_SIGNATURE_KEY,
  featuredSeedDocument,
} from '../../src/testing/featured-seed.js';
import { adapterFixture, adapterFixtureJson, vendorSignature } from '../../src/testing/native-fixtures.js';

const dialects = process.env.DATABASE_URL ? (['sqlite', 'postgres'] as const) : (['sqlite'] as const);
type Result = {
  status: string;
  eventType: string;
  pointsEarned: number;
  pointsReversed?: number;
  refundId?: string;
  warning: string | null;
};
const results = (response: { json(): unknown }) => (response.json() as { results: Result[] }).results;
/** A fixture with strings replaced (another event id, type or status), to be signed afresh. */
const edited = (body: Buffer, ...pairs: Array<[string, string]>) =>
  Buffer.from(pairs.reduce((text, [from, to]) => text.replaceAll(from, to), body.toString('utf8')));

describe.each(dialects)('refunds and voids through /webhooks/{slug}: reversed once, redeliveries are duplicates (%s)', (dialect) => {
  let api: RecordedVendorServer;
  let gw: FeaturedGateway;
  beforeAll(async () => {
    api = await startRecordedVendorServer();
    api.route('/v2/orders/03O3USaPaAaFnI6kkwB1JxGgBsUZY', { body: adapterFixtureJson('square', 'order-retrieve.json') });
    api.route('/v2/customers/JDKYHBWT1D4F8MFH63DBMEN8Y4', { body: adapterFixtureJson('square', 'customer-retrieve.json') });
    api.route(`/v3/merchants/${CLOVER_MERCHANT}/customers/CUSTVJT2ABCRS`, { body: adapterFixtureJson('clover', 'customer.json') });
    gw = await openFeaturedGateway({ seedDocument: featuredSeedDocument({ squareApi: api.baseUrl, cloverApi: api.baseUrl }), dialect });
  });
  afterAll(async () => {
    await gw.close();
    await api.close();
  });

  it('Shopify: orders/paid earns, refunds/create reverses once (redelivered: duplicate), orders/cancelled is 200 ignored', async () => {
    const member = MEMBERS.shopify.membershipId;
    const post = (topic: string, body: Buffer, eventId: string) =>
      gw.app.inject({
        method: 'POST',
        url: '/webhooks/shopify',
        payload: body,
        headers: {
          'content-type': 'application/json',
          'x-shopify-topic': topic,
          'x-shopify-shop-domain': SHOP_DOMAIN,
          'x-shopify-event-id': eventId,
          ...vendorSignature(shopify.defaultAuth, SHOPIFY_APP_SECRET, 'http://localhost/webhooks/shopify', body),
        },
      });
    const [sale] = results(await post('orders/paid', adapterFixture('shopify', 'orders-paid.json'), 'evt-paid'));
    expect(sale).toMatchObject({ eventType: 'sale.completed', status: 'processed' });
    const afterSale = await gw.balance(member);

    const refund = adapterFixture('shopify', 'refunds-create.json');
    const [reversed] = results(await post('refunds/create', refund, 'evt-refund'));
    expect(reversed).toMatchObject({ eventType: 'sale.refunded', status: 'processed', refundId: '509562969' });
    expect(reversed!.pointsReversed).toBeGreaterThan(0);
    expect(await gw.balance(member)).toBe(afterSale - reversed!.pointsReversed!);
    expect(results(await post('refunds/create', refund, 'evt-refund'))[0]).toMatchObject({ status: 'duplicate', pointsReversed: 0 });
    expect(await gw.balance(member)).toBe(afterSale - reversed!.pointsReversed!);

    const [cancelled] = results(await post('orders/cancelled', adapterFixture('shopify', 'orders-paid.json'), 'evt-cancel'));
    expect(cancelled).toMatchObject({ eventType: 'sale.voided', status: 'ignored' });
    expect(await gw.balance(member)).toBe(afterSale - reversed!.pointsReversed!);
  });

  it('Square: a COMPLETED refund reverses once whether it arrives as refund.created, refund.updated or both; a CANCELED payment earns nothing', async () => {
    const member = MEMBERS.square.membershipId;
    const post = (body: Buffer) =>
      gw.app.inject({
        method: 'POST',
        url: '/webhooks/square',
        payload: body,
        headers: {
          'content-type': 'application/json',
          ...vendorSignature(square.defaultAuth, SQUARE_SIGNATURE_KEY, SQUARE_NOTIFICATION_URL, body),
        },
      });
    const payment = adapterFixture('square', 'payment-updated-completed.json');
    const canceled = edited(payment, ['"status": "COMPLETED"', '"status": "CANCELED"'], ['6a8f5f28-54a1', 'cccccccc-54a1']);
    expect(results(await post(canceled))).toEqual([]);
    expect(await gw.balance(member)).toBe(0);
    expect(results(await post(payment))[0]).toMatchObject({ eventType: 'sale.completed', status: 'processed' });
    const afterSale = await gw.balance(member);
    expect(afterSale).toBeGreaterThan(0);

    // GetPayment answers the Payment object the sale's payment.updated carried (its order is the sale).
    const salePayment = (JSON.parse(payment.toString('utf8')) as { data: { object: { payment: { id: string } } } }).data.object.payment;
    api.route(`/v2/payments/${salePayment.id}`, { body: { payment: salePayment } });
    // Square's documented refund.updated, moved to this sale's location and payment (its order_id, the refund's own order, kept).
    const updated = edited(
      adapterFixture('square', 'refund-updated-completed.json'),
      ['"NAQ1FHV6ZJ8YV"', '"S8GWD5R9QB376"'],
      ['"payment_id": "KkAkhdMsgzn59SM8A89WgKwekxLZY"', `"payment_id": "${salePayment.id}"`],
    );
    const created = edited(updated, ['"refund.updated"', '"refund.created"'], ['bc316346-6691', 'dddddddd-6691']);
    const [first] = results(await post(created));
    expect(first).toMatchObject({ eventType: 'sale.refunded', status: 'processed' });
    expect(first!.pointsReversed).toBeGreaterThan(0);
    expect(results(await post(updated))[0]).toMatchObject({ status: 'duplicate', pointsReversed: 0 }); // the same refund, its other event
    expect(results(await post(updated))[0]).toMatchObject({ status: 'duplicate', pointsReversed: 0 }); // a redelivery
    expect(await gw.balance(member)).toBe(afterSale - first!.pointsReversed!);
  });

  it('Clover: a paid order earns; once refunded, each refund reverses once (redelivered: duplicate; a voided refund is left out); a DELETE does nothing', async () => {
    const member = MEMBERS.clover.membershipId;
    const orderPath = `/v3/merchants/${CLOVER_MERCHANT}/orders/GHIVJT2ABCRSC`;
    const paid = adapterFixtureJson('clover', 'order-paid.json') as Record<string, unknown>;
    const { refunds } = adapterFixtureJson('clover', 'order-refunded.json') as { refunds: unknown };
    const notify = (type: string, ts: number) =>
      gw.app.inject({
        method: 'POST',
        url: '/webhooks/clover',
        headers: { 'content-type': 'application/json', 'x-clover-auth': CLOVER_AUTH_CODE },
        payload: JSON.stringify({ appId: 'DRKVJT2ZRRRSC', merchants: { [CLOVER_MERCHANT]: [{ objectId: 'O:GHIVJT2ABCRSC', type, ts }] } }),
      });
    api.route(orderPath, { body: paid });
    expect(results(await notify('CREATE', 1_700_000_000_000))[0]).toMatchObject({ eventType: 'sale.completed', status: 'processed' });
    const afterSale = await gw.balance(member);
    expect(afterSale).toBeGreaterThan(0);

    api.route(orderPath, { body: { ...paid, paymentState: 'PARTIALLY_REFUNDED', refunds } });
    const reversed = results(await notify('UPDATE', 1_700_000_100_000));
    expect(reversed.map((r) => [r.eventType, r.refundId, r.status])).toEqual([
      ['sale.completed', undefined, 'duplicate'], // the refunded order's sale comes first: already earned
      ['sale.refunded', 'RF1VJT2ABCRSC', 'processed'],
      ['sale.refunded', 'RF3VJT2ABCRSC', 'processed'],
    ]);
    const total = reversed.reduce((sum, r) => sum + (r.pointsReversed ?? 0), 0);
    expect(total).toBeGreaterThan(0);
    expect(results(await notify('UPDATE', 1_700_000_100_000)).map((r) => r.status)).toEqual(['duplicate', 'duplicate', 'duplicate']);
    // A later notification about the same order re-sends the sale and both refunds: still earned and reversed once.
    expect(results(await notify('UPDATE', 1_700_000_200_000)).map((r) => r.status)).toEqual(['duplicate', 'duplicate', 'duplicate']);
    expect((await notify('DELETE', 1_700_000_300_000)).json()).toMatchObject({ results: [], notes: [expect.stringContaining('deleted')] });
    expect(await gw.balance(member)).toBe(afterSale - total);
  });
});
