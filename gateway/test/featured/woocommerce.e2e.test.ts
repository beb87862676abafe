import { createHmac } from 'node:crypto';
import { startRecordedVendorServer, type RecordedVendorServer } from '@loyalty-gateway/core/testing';
import { adapter as woocommerce } from '@loyalty-gateway/adapter-woocommerce';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runReconcile } from '../../src/reconcile/run-reconcile.js';
import { reconcileDepsFor } from '../../src/testing/reconcile-deps.js';
import type { ConnectionSummary } from '../../src/stores/index.js';
import { openFeaturedGateway, type FeaturedGateway } from '../../src/testing/featured-gateway.js';
import { seedWithWooCommerce } from '../../src/testing/featured-seed.js';
import { adapterFixture, adapterFixtureJson } from '../../src/testing/native-fixtures.js';

const dialects = process.env.DATABASE_URL ? (['sqlite', 'postgres'] as const) : (['sqlite'] as const);
const SECRET = 'wc-store-webhook-secret-0123';
const MEMBER = 'MBR-WOO';
// WooCommerce's documented orders, unedited: 727 (processing, paid 29.35) and, from the batch
// example, 729 (processing, paid 54.40); both billed to john.doe@example.com.
const order727 = adapterFixture('woocommerce', 'order-727.json');
const order729 = (adapterFixtureJson('woocommerce', 'orders-batch.json') as { create: unknown[] }).create[1];
const documentedRefunds = (adapterFixtureJson('woocommerce', 'orders-list.json') as Array<{ refunds: unknown[] }>)[1]!.refunds;

describe.each(dialects)('WooCommerce end to end through /webhooks/woocommerce (%s)', (dialect) => {
  let api: RecordedVendorServer;
  let gw: FeaturedGateway;
  let site: string;

  beforeAll(async () => {
    // Keyed by page, and by the ids of an include= read (the orders the ledger holds reversals of, read back).
    api = await startRecordedVendorServer({
      key: ({ url }) =>
        `${url.pathname}?page=${url.searchParams.get('page')}${url.searchParams.has('include') ? `&include=${url.searchParams.get('include')}` : ''}`,
    });
    site = `${api.baseUrl}/`;
    gw = await openFeaturedGateway({ seedDocument: seedWithWooCommerce(site, SECRET, 'generic'), dialect });
  });
  afterAll(async () => {
    await gw?.close();
    await api?.close();
  });

  /** A delivery as WC_Webhook::deliver() sends it: the body signed with the store's webhook secret. */
  const deliver = (body: Buffer | string, { topic = 'order.updated', from = site, secret = SECRET } = {}) =>
    gw.app.inject({
      method: 'POST',
      url: '/webhooks/woocommerce',
      payload: body,
      headers: {
        'content-type': 'application/json',
        'x-wc-webhook-source': from,
        'x-wc-webhook-topic': topic,
        'x-wc-webhook-signature': createHmac('sha256', secret).update(body).digest('base64'),
        'x-wc-webhook-id': '14',
        'x-wc-webhook-delivery-id': 'd1',
      },
    });
  // Each state with refunds is a later one: WooCommerce marks the order modified when a refund is created (PR #37047).
  let other = '';
  const withRefunds = (refunds: unknown[], at = '2017-03-23T10:00:00') =>
    JSON.stringify({ ...JSON.parse(order727.toString('utf8')), date_modified_gmt: at, refunds });

  it('saving the webhook pings the URL before the vendor is promoted: exactly 200, recorded for the operator', async () => {
    const ping = await gw.app.inject({
      method: 'POST',
      url: '/webhooks/woocommerce',
      payload: 'webhook_id=14',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(ping.statusCode).toBe(200);
    expect((await gw.notes.listVendorNotes('woocommerce'))[0]).toMatchObject({ vendor: 'woocommerce', value: '14' });
    // Anything else is refused until the operator promotes the vendor.
    expect((await deliver(order727)).json()).toMatchObject({ statusCode: 404, code: 'vendor_not_featured' });
    await gw.store.setVendorTier('woocommerce', 'featured');
  });

  it('a paid order earns once: order.created then order.updated of the same order is a duplicate', async () => {
    const created = await deliver(order727, { topic: 'order.created' });
    expect(created.statusCode).toBe(200);
    // The reversals WooCommerce lists for the paid order (none) give nothing back: the answer lists the sale alone.
    const [result] = created.json().results;
    expect(result).toMatchObject({
      storeId: site,
      transactionId: '727',
      eventType: 'sale.completed',
      status: 'processed',
      membershipId: MEMBER,
    });
    expect(result.pointsEarned).toBeGreaterThan(0);
    expect((await deliver(order727)).json().results[0]).toMatchObject({ status: 'duplicate', pointsEarned: 0 });
    expect(await gw.balance(MEMBER)).toBe(result.pointsEarned);
  });

  it('refunds[] reverse what was refunded, each once: two partial refunds, then the rest', async () => {
    const earned = await gw.balance(MEMBER);
    // WooCommerce documents no paid order with refunds: order 727 with order 723's documented entries (-10.00, -9.00).
    const partial = await deliver(withRefunds(documentedRefunds));
    expect(partial.statusCode).toBe(200);
    const reversed = partial.json().results.filter((r: { eventType: string }) => r.eventType === 'sale.refunded');
    expect(reversed.map((r: { refundId: string; status: string }) => [r.refundId, r.status])).toEqual([
      ['726', 'processed'],
      ['724', 'processed'],
    ]);
    const afterPartial = await gw.balance(MEMBER);
    expect(afterPartial).toBeLessThan(earned);
    expect(afterPartial).toBeGreaterThan(0);
    // The next update repeats both and adds the rest of the order (29.35 - 19.00): only the new one changes points.
    const rest = await deliver(withRefunds([{ id: 731, refund: '', total: '-10.35' }, ...documentedRefunds], '2017-03-23T11:00:00'));
    expect(
      rest
        .json()
        .results.filter((r: { eventType: string }) => r.eventType === 'sale.refunded')
        .map((r: { refundId: string; status: string }) => [r.refundId, r.status]),
    ).toEqual([
      ['731', 'processed'],
      ['726', 'duplicate'],
      ['724', 'duplicate'],
    ]);
    expect(await gw.balance(MEMBER)).toBe(0);
  });

  it('a refund the ledger refuses (its id already used for another order) is skipped as refused with the code, not a 400 for the whole delivery: WooCommerce would retry it and then disable the webhook; the rest counts', async () => {
    const before = await gw.balance(MEMBER);
    // Order 730 (order 727's document under another id), paid; its refunds: 726 again (used for
    // order 727 above) and a new one.
    other = JSON.stringify({
      ...JSON.parse(order727.toString('utf8')),
      id: 730,
      number: '730',
      refunds: [
        { id: 726, refund: '', total: '-10.00' },
        { id: 732, refund: '', total: '-1.00' },
      ],
    });
    const response = await deliver(other);
    expect(response.statusCode, response.body).toBe(200);
    const answer = response.json();
    expect(
      answer.results.map((r: { eventType: string; status: string; refundId?: string }) => [r.eventType, r.refundId ?? null, r.status]),
    ).toEqual([
      ['sale.completed', null, 'processed'],
      ['sale.refunded', '732', 'processed'],
    ]);
    expect(answer.skipped).toEqual([
      {
        storeId: site,
        reason: 'refused',
        detail: expect.stringMatching(/^refund_id_reused: Refund id 726 was already used for a refund of order 727/),
      },
    ]);
    const [sale, refund] = answer.results;
    expect(await gw.balance(MEMBER)).toBe(before + sale.pointsEarned - refund.pointsReversed);
    // Redelivered, it is answered the same way: duplicates, and the refusal again.
    const again = (await deliver(other)).json();
    expect(again.results.map((r: { status: string }) => r.status)).toEqual(['duplicate', 'duplicate']);
    expect(again.skipped).toEqual(answer.skipped);
    expect(await gw.balance(MEMBER)).toBe(before + sale.pointsEarned - refund.pointsReversed);
  });

  it("a signature with another store's secret is 401 and a site with no connection is 401 unknown_connection; nothing earned", async () => {
    const before = await gw.balance(MEMBER);
    expect((await deliver(order727, { secret: 'not-this-store' })).json()).toMatchObject({ statusCode: 401, code: 'bad_signature' });
    expect((await deliver(order727, { from: 'https://other-shop.example.com/' })).json()).toMatchObject({
      statusCode: 401,
      code: 'unknown_connection',
    });
    expect(await gw.balance(MEMBER)).toBe(before);
  });

  it('reconciliation earns a paid order whose webhook WooCommerce never sent; what the webhook delivered is a duplicate', async () => {
    const before = await gw.balance(MEMBER);
    api.route('/wp-json/wc/v3/orders?page=1', {
      // 727 as WooCommerce holds it now: with the three refunds reversed above.
      body: [JSON.parse(withRefunds([{ id: 731, refund: '', total: '-10.35' }, ...documentedRefunds], '2017-03-23T11:00:00')), order729],
      headers: { 'x-wp-totalpages': '1' },
    });
    // Read back because the ledger holds reversals of it (727 is on the listed page already): 730 as delivered above.
    api.route('/wp-json/wc/v3/orders?page=1&include=730', { body: [JSON.parse(other)] });
    const [connection] = (await gw.store.listConnections({ vendor: 'woocommerce' })) as ConnectionSummary[];
    const clock = connection!.createdAt.getTime() + 60 * 60 * 1000;
    const deps = await reconcileDepsFor(gw, () => clock);
    const run = await runReconcile(woocommerce, connection!, deps, { kind: 'schedule', slot: 'tick-1' });
    // Each order's sale and refunds (their lists of reversals give nothing back): only 729's sale is new. 730's refund
    // 726, refused by the ledger (its id is 727's), is logged and not applied, as the door answers it:
    // the run succeeds (a refusal is the same on every run; failing would pull the window forever).
    expect(run).toMatchObject({ status: 'succeeded', found: 3, recovered: 1, duplicates: 6, failed: 0 });
    expect(await gw.balance(MEMBER)).toBeGreaterThan(before);
    const listing = api.seen.find((r) => r.path === '/wp-json/wc/v3/orders')!;
    expect(listing.headers.authorization).toBe(`Basic ${Buffer.from('ck_test0001:cs_test0001').toString('base64')}`);
    // The webhook for 729 arriving late changes nothing.
    const late = await deliver(JSON.stringify(order729));
    expect(late.json().results[0]).toMatchObject({
      transactionId: '729',
      eventType: 'sale.completed',
      status: 'duplicate',
      pointsEarned: 0,
    });
  });
});
