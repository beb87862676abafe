import { VendorApiError } from '@loyalty-gateway/core';
import { adapterKit } from '@loyalty-gateway/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { adapter } from './index.js';
import { RECONCILE_ORDER_QUERY } from './reconcile.js';
import { fixtures, graphqlOrderOf, startRecordedShopify } from './testing/index.js';

type RecordedShopify = Awaited<ReturnType<typeof startRecordedShopify>>;
const SHOP = 'bean-there.myshopify.com';
let server: RecordedShopify | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const kitFor = (apiBaseUrl: string, credentials: Record<string, string> = { accessToken: 'shpat_fake' }) =>
  adapterKit(adapter, {
    settings: { appSecret: 'shpss_test_app_secret', apiBaseUrl },
    credentials,
    now: () => new Date('2025-08-01T12:00:00Z'),
  });
const transactionDelivery = (kit: ReturnType<typeof kitFor>, body: unknown, eventId = 'evt-settled') =>
  kit.signed(JSON.stringify(body), {
    'X-Shopify-Topic': 'order_transactions/create',
    'X-Shopify-Shop-Domain': SHOP,
    'X-Shopify-Event-Id': eventId,
  });

// Shopify's recorded refund 929361472 (41.94, a line and full shipping) made live (`test: true`
// flipped): pending when refunds/create came, its transaction now settled. order_transactions/create
// carries the REST Transaction: that refund's own transactions[] entry, status success.
const recordedRefund = fixtures.json<any>('refunds-create-line-item-plus-full-shipping.response.json').refund;
const settled = { ...recordedRefund, transactions: recordedRefund.transactions.map((t: object) => ({ ...t, test: false })) };
const transaction = settled.transactions[0];
const orderRead = (refunds: unknown[]) => ({
  status: 200,
  body: JSON.stringify({ data: { order: graphqlOrderOf(fixtures.json('orders-paid.json'), refunds) } }),
});

describe('order_transactions/create: a refund whose transactions settled, read back from its order', () => {
  it('a refund transaction reads the order back (the reconciliation query, the access token) and reverses its settled refunds, each under its own event id', async () => {
    const storeCredit = fixtures.json<any>('refunds-create-line-items-2026-07.response.json').refund;
    server = await startRecordedShopify([orderRead([storeCredit, settled])]);
    const kit = kitFor(server.apiBaseUrl);
    const { envelopes, notes } = await kit.envelopes(transactionDelivery(kit, transaction));
    expect(notes).toEqual([]);
    expect(envelopes).toEqual([
      {
        eventId: 'order_transactions/create:evt-settled:509562969',
        eventType: 'sale.refunded',
        occurredAt: '2025-04-02T16:38:15.000Z',
        store: { id: SHOP },
        transaction: { id: '450789469', currency: 'USD' },
        refund: { id: '509562969', amount: 209 },
      },
      {
        eventId: 'order_transactions/create:evt-settled:929361472',
        eventType: 'sale.refunded',
        occurredAt: '2025-04-02T16:38:34.000Z',
        store: { id: SHOP },
        transaction: { id: '450789469', currency: 'USD' },
        refund: { id: '929361472', amount: 41.94 },
      },
    ]);
    expect(server.seen).toHaveLength(1);
    expect(JSON.parse(server.seen[0]!.body)).toEqual({ query: RECONCILE_ORDER_QUERY, variables: { id: 'gid://shopify/Order/450789469' } });
    expect(server.seen[0]!.headers['x-shopify-access-token']).toBe('shpat_fake');
    // The same refund mapped from refunds/create, once settled, is the same reversal (same id, same amount).
    const webhook = await kit.envelopes(
      kit.signed(JSON.stringify(settled), { 'X-Shopify-Topic': 'refunds/create', 'X-Shopify-Shop-Domain': SHOP }),
    );
    expect(webhook.envelopes.map((e) => [e.transaction, 'refund' in e ? e.refund : null])).toEqual([
      [envelopes[1]!.transaction, { id: '929361472', amount: 41.94 }],
    ]);
  });

  it('a refund still pending when read back is not reversed (a note); its own settlement will come as another order_transactions/create', async () => {
    const pending = { ...settled, transactions: settled.transactions.map((t: object) => ({ ...t, status: 'pending' })) };
    server = await startRecordedShopify([orderRead([pending])]);
    const kit = kitFor(server.apiBaseUrl);
    const { envelopes, notes } = await kit.envelopes(transactionDelivery(kit, { ...transaction, status: 'failure' }));
    expect(envelopes).toEqual([]);
    expect(notes[0]).toMatch(/refund 929361472 of order 450789469 has a refund transaction still pending/);
  });

  it('a transaction of another kind, a test one, or a connection without an access token: a note, nothing read', async () => {
    server = await startRecordedShopify([]);
    const kit = kitFor(server.apiBaseUrl);
    for (const [body, note] of [
      [{ ...transaction, kind: 'capture' }, /capture transaction 1068278526 .*not a refund/],
      [{ ...transaction, test: true }, /is test-mode/],
      [{ id: 1 }, /unreadable order_transactions\/create payload \(order_id\)/],
    ] as const) {
      const { envelopes, notes } = await kit.envelopes(transactionDelivery(kit, body));
      expect(envelopes).toEqual([]);
      expect(notes[0]).toMatch(note);
    }
    const noToken = kitFor(server.apiBaseUrl, {});
    expect((await noToken.envelopes(transactionDelivery(noToken, transaction))).notes[0]).toMatch(/has no accessToken/);
    expect(server.seen).toHaveLength(0);
  });

  it('an order Shopify no longer has is a note; a failed read or an answer it cannot read is a VendorApiError (the door answers 503, Shopify redelivers)', async () => {
    server = await startRecordedShopify([
      { status: 200, body: JSON.stringify({ data: { order: null } }) },
      { status: 503, body: 'unavailable' },
      { status: 503, body: 'unavailable' },
      { status: 503, body: 'unavailable' },
      { status: 200, body: JSON.stringify({ data: { order: { legacyResourceId: 'not-a-number' } } }) },
    ]);
    const kit = kitFor(server.apiBaseUrl);
    expect((await kit.envelopes(transactionDelivery(kit, transaction))).notes[0]).toMatch(/Shopify has no such order/);
    await expect(kit.envelopes(transactionDelivery(kit, transaction))).rejects.toBeInstanceOf(VendorApiError);
    await expect(kit.envelopes(transactionDelivery(kit, transaction))).rejects.toMatchObject({
      status: 200,
      message: expect.stringContaining('unreadable order: legacyResourceId'),
    });
  });
});
