import { adapter as shopify } from '@loyalty-gateway/adapter-shopify';
import { graphqlOrderOf } from '@loyalty-gateway/adapter-shopify/testing';
import { startRecordedVendorServer, type RecordedReply, type RecordedVendorServer, type SeenRequest } from '@loyalty-gateway/core/testing';
import { testDialects } from '@loyalty-gateway/storage/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runReconcile } from '../../src/reconcile/run-reconcile.js';
import type { ConnectionSummary } from '../../src/stores/index.js';
import { openFeaturedGateway, type FeaturedGateway } from '../../src/testing/featured-gateway.js';
import { MEMBERS, SHOP_DOMAIN, SHOPIFY_APP_SECRET, featuredSeedDocument } from '../../src/testing/featured-seed.js';
import { adapterFixture, adapterFixtureJson, vendorSignature } from '../../src/testing/native-fixtures.js';
import { reconcileDepsFor } from '../../src/testing/reconcile-deps.js';

/**
 * The Shopify rows of the README's "Money lifecycle" table through the real door, signed as Shopify
 * signs (HMAC-SHA256 of the raw body with the app secret), on both dialects, the member's wallet
 * checked after every step and every step delivered again (a redelivery changes nothing). The story
 * is Shopify's documented order #1001 (450789469, 598.94 USD) through its recorded life: paid,
 * refunded to store credit, its shipping refunded in another currency, cancelled with a refund to a
 * gift card, a refund pending then settled; and a second order charged back. Then the
 * reconciliation pull meets the same states and ends at the same wallet.
 *
 * Bodies are Shopify's recordings (adapters/shopify/src/fixtures, SOURCES.md), unedited; the
 * `*.response.json` ones are API answers whose inner object is the webhook body. Where a step needs
 * what no recording shows, it is derived here, visibly: recordings made through Shopify's test
 * gateway (`test: true`) are made live by flipping only that flag (`live`), and each other change
 * says which documented part it stands for.
 */
const URL = 'http://localhost/webhooks/shopify';
const API = '/admin/api/2026-07/graphql.json';
const member = MEMBERS.shopify.membershipId;

const json = (name: string) => adapterFixtureJson('shopify', name) as any;
const bytes = (body: unknown) => Buffer.from(JSON.stringify(body));
/** A recorded test-gateway refund made live: only its transactions' `test: true` flipped to false. */
const live = (refund: any) => ({ ...refund, transactions: refund.transactions.map((t: object) => ({ ...t, test: false })) });

// Shopify's documented order, verbatim (paid in full: partially_refunded, total_outstanding 0.00).
const paid = adapterFixture('shopify', 'orders-paid.json');
const order = () => json('orders-paid.json');
// A refund to store credit: no REST recording exists; Shopify's 2026-07 refund 509562969 (209.00)
// with its transaction's gateway as the GraphQL refundCreate example shows a store-credit refund's
// ("gateway": "shopify_store_credit", refund-to-store-credit.graphql-response.json).
const recordedStoreCredit = json('refunds-create-line-items-2026-07.response.json').refund;
const storeCredit = {
  ...recordedStoreCredit,
  transactions: recordedStoreCredit.transactions.map((t: object) => ({ ...t, gateway: 'shopify_store_credit' })),
};
// The recorded shipping-only refund 929361471 (5.00 of shipping), made live, as a multi-currency shop
// sends it from API 2024-10: paid back in EUR (4.60), its shipping line's set in both currencies,
// no shipping order adjustment ("Refunded shipping costs will not be present in the webhook payload
// for REFUNDS_CREATE as of 2024-10").
const recordedShipping = live(json('refunds-create-shipping-only-refund-shipping-lines.response.json').refund);
const shippingInEuros = {
  ...recordedShipping,
  order_adjustments: [],
  transactions: recordedShipping.transactions.map((t: object) => ({ ...t, amount: '4.60', currency: 'EUR' })),
  refund_shipping_lines: recordedShipping.refund_shipping_lines.map((line: object) => ({
    ...line,
    subtotal_amount_set: {
      shop_money: { amount: '5.00', currency_code: 'USD' },
      presentment_money: { amount: '4.60', currency_code: 'EUR' },
    },
  })),
};
// The order after POST cancel with a refund, verbatim: orders/cancelled's body; its refund 929361464
// (gift_card 100.00 live, bogus 10.00 test), verbatim: the refunds/create that cancellation sends.
const cancelledOrder = json('orders-cancelled-with-refund-giftcard-discrepancy.response.json').order;
const giftCardRefund = cancelledOrder.refunds[0];
// The recorded refund 929361472 (41.94), made live, its transaction pending, then settled.
const recordedLater = live(json('refunds-create-line-item-plus-full-shipping.response.json').refund);
const withStatus = (status: string) => ({
  ...recordedLater,
  transactions: recordedLater.transactions.map((t: object) => ({ ...t, status })),
});
// order_transactions/create carries the REST Transaction: that refund's own transactions[] entry, settled.
const settledTransaction = withStatus('success').transactions[0];
// Shopify's recorded disputes (unedited), each the body of disputes/update, all of order 625362839.
const dispute = (id: number) => json('disputes-list.response.json').disputes.find((d: { id: number }) => d.id === id);
// That order: Shopify's documented order under the disputes' order id, so the charged-back sale exists.
const disputedOrder = bytes({ ...order(), id: 625362839 });

/** What the shop's Admin GraphQL API holds (REST resources as graphqlOrderOf turns them into GraphQL orders). */
let shopOrders: Array<Record<string, any>> = [];
const gidOf = (o: Record<string, any>) => `gid://shopify/Order/${o.legacyResourceId}`;
function adminApi(request: SeenRequest): RecordedReply | undefined {
  if (request.path !== API) return undefined;
  const { variables } = JSON.parse(request.body);
  if (typeof variables?.id === 'string') return { body: { data: { order: shopOrders.find((o) => gidOf(o) === variables.id) ?? null } } };
  const nodes = shopOrders.map((o) => ({ id: gidOf(o), legacyResourceId: o.legacyResourceId, test: o.test }));
  return { body: { data: { orders: { pageInfo: { hasNextPage: false, endCursor: null }, nodes } } } };
}

type Result = {
  status: string;
  eventType: string;
  refundId?: string;
  pointsEarned?: number;
  pointsReversed?: number;
  warning?: string | null;
};
type Answer = { status: string; results: Result[]; skipped: unknown[]; notes: string[] };

describe.each(testDialects())('Shopify money lifecycle through /webhooks/shopify ($name)', ({ name: dialect }) => {
  let api: RecordedVendorServer;
  let gw: FeaturedGateway;
  let connection: ConnectionSummary;
  let clock = 0;
  let walletAfterShipping = 0;

  beforeAll(async () => {
    shopOrders = [];
    api = await startRecordedVendorServer({ respond: adminApi });
    gw = await openFeaturedGateway({ seedDocument: featuredSeedDocument({ shopifyApi: `${api.baseUrl}/admin/api/2026-07` }), dialect });
    connection = (await gw.store.listConnections({ vendor: 'shopify' }))[0]!;
    clock = connection.createdAt.getTime() + 60 * 60 * 1000;
  });
  afterAll(async () => {
    await gw?.close();
    await api?.close();
  });

  /** One delivery as Shopify makes it: its topic, event id (the same on every retry) and delivery id. */
  async function deliver(topic: string, body: Buffer, eventId: string, webhookId = `${eventId}-delivery`): Promise<Answer> {
    const response = await gw.app.inject({
      method: 'POST',
      url: '/webhooks/shopify',
      payload: body,
      headers: {
        'content-type': 'application/json',
        'x-shopify-topic': topic,
        'x-shopify-shop-domain': SHOP_DOMAIN,
        'x-shopify-event-id': eventId,
        'x-shopify-webhook-id': webhookId,
        'x-shopify-api-version': '2026-07',
        ...vendorSignature(shopify.defaultAuth, SHOPIFY_APP_SECRET, URL, body),
      },
    });
    expect(response.statusCode, response.body).toBe(200);
    const answer = response.json() as Answer;
    expect(answer.skipped).toEqual([]);
    return answer;
  }
  /** The step, then Shopify's redelivery of it (a retry: another webhook id): the redelivery changes nothing. */
  async function deliverTwice(topic: string, body: Buffer, eventId: string): Promise<Answer> {
    const first = await deliver(topic, body, eventId);
    const before = await gw.balance(member);
    const again = await deliver(topic, body, eventId, `${eventId}-retry`);
    for (const result of again.results) expect(result.status).toMatch(/^(duplicate|ignored)$/);
    expect(await gw.balance(member)).toBe(before);
    return first;
  }
  const wallet = () => gw.balance(member);
  const reconcile = async (target: FeaturedGateway, slot: string) => {
    clock += 15 * 60 * 1000;
    const targetConnection = (await target.store.listConnections({ vendor: 'shopify' }))[0]!;
    return runReconcile(shopify, targetConnection, await reconcileDepsFor(target, () => clock), { kind: 'schedule', slot });
  };

  it('a partly paid order earns nothing (a note says what was received); redelivered, still nothing', async () => {
    // The documented order as REST describes a deposit: financial_status partially_paid, 298.94 still outstanding.
    const deposit = bytes({ ...order(), financial_status: 'partially_paid', total_outstanding: '298.94' });
    const answer = await deliverTwice('orders/paid', deposit, 'evt-deposit');
    expect(answer).toMatchObject({ results: [], notes: [expect.stringContaining('300.00 of 598.94 USD received, 298.94 outstanding')] });
    expect(await wallet()).toBe(0);
  });

  it('paid in full, the same event delivered by two subscriptions (toml and API: one event id, two webhook ids) earns once: 598 points', async () => {
    const toml = await deliver('orders/paid', paid, 'evt-paid', 'toml-subscription-delivery');
    expect(toml.results).toMatchObject([{ eventType: 'sale.completed', status: 'processed', pointsEarned: 598 }]);
    const apiMade = await deliver('orders/paid', paid, 'evt-paid', 'api-subscription-delivery');
    expect(apiMade.results).toMatchObject([{ eventType: 'sale.completed', status: 'duplicate', pointsEarned: 0 }]);
    expect(await wallet()).toBe(598);
    await deliverTwice('orders/paid', paid, 'evt-paid');
    expect(await wallet()).toBe(598);
    shopOrders = [graphqlOrderOf(order())];
  });

  it('a refund to store credit reverses like a money refund: 209.00 of 598.94 takes back 208 points', async () => {
    const answer = await deliverTwice('refunds/create', bytes(storeCredit), 'evt-store-credit');
    // floor(598 × 209.00 / 598.94) = 208
    expect(answer.results).toMatchObject([{ eventType: 'sale.refunded', refundId: '509562969', status: 'processed', pointsReversed: 208 }]);
    expect(await wallet()).toBe(390);
  });

  it('a shipping-only refund in EUR reverses exactly its share: 4.60 EUR is 5.00 USD at its own rate, 5 more points', async () => {
    const answer = await deliverTwice('refunds/create', bytes(shippingInEuros), 'evt-shipping');
    // cumulative 214.00: floor(598 × 214.00 / 598.94) = 213, 5 more than 208
    expect(answer.results).toMatchObject([{ refundId: '929361471', status: 'processed', pointsReversed: 5 }]);
    expect(await wallet()).toBe(385);
    walletAfterShipping = await wallet();
    shopOrders = [graphqlOrderOf(order(), [storeCredit, shippingInEuros])];
  });

  it('the reconciliation meets the store-credit and shipping-only states: duplicates here, and alone on a fresh gateway it ends at the same wallet', async () => {
    const run = await reconcile(gw, 'lifecycle-1');
    // The sale and both refunds, as the webhooks carried them.
    expect(run).toMatchObject({ status: 'succeeded', found: 1, recovered: 0, duplicates: 3, failed: 0 });
    expect(await wallet()).toBe(walletAfterShipping);

    // A gateway whose webhooks never came: the pull alone earns and reverses the same.
    const fresh = await openFeaturedGateway({
      seedDocument: featuredSeedDocument({ shopifyApi: `${api.baseUrl}/admin/api/2026-07` }),
      dialect,
    });
    try {
      const alone = await reconcile(fresh, 'lifecycle-fresh');
      expect(alone).toMatchObject({ status: 'succeeded', recovered: 3, duplicates: 0, failed: 0 });
      expect(await fresh.balance(member)).toBe(walletAfterShipping);
      expect(await reconcile(fresh, 'lifecycle-fresh-2')).toMatchObject({ status: 'succeeded', recovered: 0, duplicates: 3 });
      expect(await fresh.balance(member)).toBe(walletAfterShipping);
    } finally {
      await fresh.close();
    }
  });

  it('cancelled with a refund to a gift card: the cancellation reverses nothing, its refund reverses the gift card 100.00 (the test-gateway 10.00 moved no money)', async () => {
    const cancelled = await deliverTwice('orders/cancelled', bytes(cancelledOrder), 'evt-cancel');
    expect(cancelled).toMatchObject({
      results: [{ eventType: 'sale.voided', status: 'ignored' }],
      notes: [expect.stringContaining('nothing reversed by the cancellation itself')],
    });
    expect(await wallet()).toBe(385);
    const refunded = await deliverTwice('refunds/create', bytes(giftCardRefund), 'evt-cancel');
    // cumulative 314.00: floor(598 × 314.00 / 598.94) = 313, 100 more than 213
    expect(refunded.results).toMatchObject([{ refundId: '929361464', status: 'processed', pointsReversed: 100 }]);
    expect(await wallet()).toBe(285);
  });

  it('a refund still pending reverses nothing; settled, order_transactions/create reads the order back and reverses it once', async () => {
    const pending = await deliverTwice('refunds/create', bytes(withStatus('pending')), 'evt-later');
    expect(pending).toMatchObject({ results: [], notes: [expect.stringContaining('still pending: nothing reversed yet')] });
    expect(await wallet()).toBe(285);

    // Shopify now lists every refund of the order, the later one settled.
    shopOrders = [
      {
        ...graphqlOrderOf(order(), [storeCredit, shippingInEuros, giftCardRefund, withStatus('success')]),
        cancelledAt: cancelledOrder.cancelled_at,
      },
    ];
    const reads = () =>
      api.seen.filter((r) => r.path === API && JSON.parse(r.body).variables.id === 'gid://shopify/Order/450789469').length;
    const readsBefore = reads();
    const settled = await deliverTwice('order_transactions/create', bytes(settledTransaction), 'evt-settled');
    expect(reads()).toBe(readsBefore + 2); // read back on the delivery and on its retry
    // cumulative 355.94: floor(598 × 355.94 / 598.94) = 355, 42 more than 313; the others are duplicates.
    expect(settled.results.map((r) => [r.refundId, r.status, r.pointsReversed])).toEqual([
      ['509562969', 'duplicate', 0],
      ['929361471', 'duplicate', 0],
      ['929361464', 'duplicate', 0],
      ['929361472', 'processed', 42],
    ]);
    expect(await wallet()).toBe(243);
    // The settled refund's own refunds/create, late, is the same reversal.
    const late = await deliverTwice('refunds/create', bytes(withStatus('success')), 'evt-later-settled');
    expect(late.results).toMatchObject([{ refundId: '929361472', status: 'duplicate' }]);
    expect(await wallet()).toBe(243);
  });

  it('edited after payment, 100.00 more captured (orders/paid again with the grown total): the sale keeps its first total, nothing more earned (decision 5)', async () => {
    // The documented order as an edit that added items would leave it: total_price 698.94, paid in full.
    const grown = await deliverTwice('orders/paid', bytes({ ...order(), total_price: '698.94' }), 'evt-edited');
    expect(grown.results).toMatchObject([
      { eventType: 'sale.completed', status: 'duplicate', pointsEarned: 0, warning: expect.stringContaining('with another total') },
    ]);
    expect(await wallet()).toBe(243);
  });

  it('a chargeback: needs_response and won reverse nothing, lost in another currency is refused by the ledger, lost reverses the disputed 100.00 once', async () => {
    expect((await deliverTwice('orders/paid', disputedOrder, 'evt-disputed-paid')).results).toMatchObject([
      { status: 'processed', pointsEarned: 598 },
    ]);
    expect(await wallet()).toBe(243 + 598);
    const waiting = await deliverTwice('disputes/update', bytes(dispute(598735659)), 'evt-dispute-open');
    expect(waiting).toMatchObject({ results: [], notes: [expect.stringContaining('not final: reversed only if lost')] });
    const won = await deliverTwice('disputes/update', bytes(dispute(782360659)), 'evt-dispute-won');
    expect(won).toMatchObject({ results: [], notes: [expect.stringContaining('won by the merchant')] });
    expect(await wallet()).toBe(841);
    // A lost chargeback stated in another currency than the sale's (the recorded dispute 46484353 with
    // currency EUR): the payload gives no rate, so it is sent as it is and the ledger refuses it
    // (currency_mismatch), reported in the answer's skipped; nothing is reversed.
    const body = bytes({ ...dispute(46484353), currency: 'EUR' });
    const response = await gw.app.inject({
      method: 'POST',
      url: '/webhooks/shopify',
      payload: body,
      headers: {
        'content-type': 'application/json',
        'x-shopify-topic': 'disputes/update',
        'x-shopify-shop-domain': SHOP_DOMAIN,
        'x-shopify-event-id': 'evt-dispute-eur',
        ...vendorSignature(shopify.defaultAuth, SHOPIFY_APP_SECRET, URL, body),
      },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      results: [],
      skipped: [{ reason: 'refused', detail: expect.stringMatching(/^currency_mismatch/) }],
    });
    expect(await wallet()).toBe(841);
    const lost = await deliverTwice('disputes/update', bytes(dispute(297752803)), 'evt-dispute-lost');
    // floor(598 × 100.00 / 598.94) = 99
    expect(lost.results).toMatchObject([{ refundId: 'dispute:297752803', status: 'processed', pointsReversed: 99 }]);
    expect(await wallet()).toBe(742);
  });

  it('the reconciliation of the whole story changes nothing: every sale and refund it finds is a duplicate', async () => {
    shopOrders = [...shopOrders, graphqlOrderOf({ ...order(), id: 625362839 })];
    const run = await reconcile(gw, 'lifecycle-2');
    // Order 450789469: its sale and four refunds (the cancellation's sale.voided is ignored); order 625362839: its sale.
    expect(run).toMatchObject({ status: 'succeeded', found: 2, recovered: 0, duplicates: 6, failed: 0 });
    expect(await wallet()).toBe(742);
  });
});
