import { adapterKit } from '@loyalty-gateway/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { adapter } from './index.js';
import { fixtures, startRecordedShopify } from './testing/index.js';
import { RECONCILE_ORDER_QUERY, RECONCILE_QUERY } from './reconcile.js';
import { graphqlOrderOf, shopMoney as money } from './testing/graphql-order.js';

const restOrder = JSON.parse(fixtures.text('orders-paid.json'));
const restRefund = JSON.parse(fixtures.text('refunds-create.json'));
const graphqlOrder = (overrides: Record<string, unknown> = {}) => ({ ...graphqlOrderOf(restOrder, [restRefund]), ...overrides });

type RecordedShopify = Awaited<ReturnType<typeof startRecordedShopify>>;
const SHOP = 'bean-there.myshopify.com';
const WINDOW = { since: new Date('2024-01-02T13:00:00Z'), until: new Date('2024-01-02T14:00:00Z') };
let server: RecordedShopify | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/**
 * What Shopify answers for one page: the listing (ids and test flags only), then each listed order
 * read back alone, in order (test orders and unreadable entries are not read back).
 */
const page = (orders: Array<Record<string, any>>, endCursor: string | null) => [
  {
    status: 200,
    body: JSON.stringify({
      data: {
        orders: {
          pageInfo: { hasNextPage: endCursor !== null, endCursor },
          nodes: orders.map((o) => ({
            id: `gid://shopify/Order/${o.legacyResourceId}`,
            legacyResourceId: o.legacyResourceId,
            test: o.test,
          })),
        },
      },
    }),
  },
  ...orders
    .filter((o) => /^\d+$/.test(String(o.legacyResourceId)) && o.test !== true)
    .map((order) => ({ status: 200, body: JSON.stringify({ data: { order } }) })),
];
const kitFor = (recorded: RecordedShopify) =>
  adapterKit(adapter, { settings: { appSecret: 'shpss_x', apiBaseUrl: recorded.apiBaseUrl }, credentials: { accessToken: 'shpat_fake' } });

describe('shopify order reconciliation (Admin GraphQL orders by updated_at, cursor paging)', () => {
  it('maps a listed order and its refund exactly as the orders/paid and refunds/create webhooks map them', async () => {
    server = await startRecordedShopify([...page([graphqlOrder()], 'cursor-2'), ...page([], null)]);
    const kit = kitFor(server);
    const pulled = await kit.reconcile(SHOP, WINDOW);
    const paid = await kit.envelopes(
      kit.signed(fixtures.text('orders-paid.json'), { 'x-shopify-topic': 'orders/paid', 'x-shopify-shop-domain': SHOP }),
    );
    const refunded = await kit.envelopes(
      kit.signed(fixtures.text('refunds-create.json'), { 'x-shopify-topic': 'refunds/create', 'x-shopify-shop-domain': SHOP }),
    );
    // GraphQL's Order.discountCodes names the codes only (the REST amount and type are not there):
    // the one difference, and one the ledger's sale fingerprint leaves out (the same sale, a duplicate).
    const sale = paid.envelopes[0]!;
    if (sale.eventType !== 'sale.completed') throw new Error(`expected sale.completed, got ${sale.eventType}`);
    const webhookSale = { ...sale.transaction, discountCodes: [{ code: 'TENOFF' }] };
    expect(sale.transaction.discountCodes).toEqual([{ code: 'TENOFF', amount: 10, type: 'fixed_amount' }]);
    expect(pulled.envelopes.map((e) => [e.eventType, e.transaction, e.eventType === 'sale.refunded' ? e.refund : null])).toEqual([
      ['sale.completed', webhookSale, null],
      ['sale.refunded', refunded.envelopes[0]!.transaction, (refunded.envelopes[0] as { refund: unknown }).refund],
    ]);
    expect(pulled).toMatchObject({ failures: [], examined: 1, cursors: ['cursor-2', null] });
    const [first, readBack, second] = server.seen.map((r) => JSON.parse(r.body));
    expect(first).toEqual({
      query: RECONCILE_QUERY,
      variables: { first: 50, after: null, query: "updated_at:>='2024-01-02T13:00:00.000Z' AND updated_at:<'2024-01-02T14:00:00.000Z'" },
    });
    expect(readBack).toEqual({ query: RECONCILE_ORDER_QUERY, variables: { id: 'gid://shopify/Order/450789469' } });
    expect(second.variables.after).toBe('cursor-2');
    expect(server.seen).toHaveLength(3);
    expect(server.seen[0]!.headers['x-shopify-access-token']).toBe('shpat_fake');
  });

  it('unpaid and test orders earn nothing; an order it cannot read is a failure, not a stop', async () => {
    server = await startRecordedShopify([
      ...page(
        [
          graphqlOrder({ legacyResourceId: '1001', displayFinancialStatus: 'PENDING', refunds: [] }),
          graphqlOrder({ legacyResourceId: '1002', test: true }),
          { legacyResourceId: 'gid://shopify/Order/1003' },
          graphqlOrder({ legacyResourceId: '1004', displayFinancialStatus: 'PAID', refunds: [] }),
        ],
        null,
      ),
    ]);
    const { envelopes, failures, examined } = await kitFor(server).reconcile(SHOP, WINDOW);
    expect(envelopes.map((e) => [e.eventType, e.transaction.id])).toEqual([['sale.completed', '1004']]);
    expect(failures).toEqual([{ id: 'gid://shopify/Order/1003', reason: expect.stringMatching(/^unreadable order: legacyResourceId/) }]);
    expect(examined).toBe(4);
  });

  it('a cancelled order is also its orders/cancelled (sale.voided, as the webhook maps it); a cancelled test order gives nothing', async () => {
    const cancelledAt = '2024-01-02T13:30:00-05:00';
    server = await startRecordedShopify([
      ...page(
        [
          graphqlOrder({ cancelledAt, displayFinancialStatus: 'REFUNDED' }),
          graphqlOrder({ legacyResourceId: '1005', cancelledAt, displayFinancialStatus: 'VOIDED', refunds: [] }),
          graphqlOrder({ legacyResourceId: '1006', cancelledAt, test: true }),
        ],
        null,
      ),
    ]);
    const kit = kitFor(server);
    const { envelopes, failures } = await kit.reconcile(SHOP, WINDOW);
    const body = JSON.stringify({ ...restOrder, cancelled_at: cancelledAt });
    const cancelled = await kit.envelopes(kit.signed(body, { 'x-shopify-topic': 'orders/cancelled', 'x-shopify-shop-domain': SHOP }));
    expect(cancelled.envelopes.map((e) => [e.eventType, e.transaction.id, e.occurredAt])).toEqual([
      ['sale.voided', '450789469', '2024-01-02T18:30:00.000Z'],
    ]);
    const voided = envelopes.filter((e) => e.eventType === 'sale.voided');
    expect(voided.map((e) => [e.transaction.id, e.occurredAt])).toEqual([
      ['450789469', '2024-01-02T18:30:00.000Z'],
      ['1005', '2024-01-02T18:30:00.000Z'],
    ]);
    expect(voided[0]!.transaction).toEqual({ ...cancelled.envelopes[0]!.transaction, discountCodes: [{ code: 'TENOFF' }] });
    // The paid-then-cancelled order keeps its sale and refund (orders/paid and refunds/create came too);
    // the voided one was never paid (no orders/paid), the test one earns nothing at all.
    expect(envelopes.map((e) => [e.eventType, e.transaction.id])).toEqual([
      ['sale.completed', '450789469'],
      ['sale.refunded', '450789469'],
      ['sale.voided', '450789469'],
      ['sale.voided', '1005'],
    ]);
    expect(new Set(envelopes.map((e) => e.eventId)).size).toBe(envelopes.length);
    expect(failures).toEqual([]);
  });

  it('a refund paid back in the presentment currency is reversed in shop money exactly as refunds/create gives it (its transactions and money sets, not totalRefundedSet)', async () => {
    // Shopify's documented refund (unedited fixture) as a multi-currency shop sends it: paid back
    // in EUR, its line's money set in both currencies (as in money.test.ts).
    const inEuros = {
      ...restRefund,
      transactions: restRefund.transactions.map((t: object) => ({ ...t, amount: '190.00', currency: 'EUR' })),
      refund_line_items: [
        {
          ...restRefund.refund_line_items[0],
          subtotal_set: {
            shop_money: { amount: '195.66', currency_code: 'USD' },
            presentment_money: { amount: '180.00', currency_code: 'EUR' },
          },
        },
      ],
    };
    // totalRefundedSet.shopMoney says 206.50: the webhook's own rate gives 206.53, and that is what both must report.
    const listed = graphqlOrderOf(restOrder, [inEuros]) as { refunds: Array<Record<string, unknown>> };
    const refund = { ...listed.refunds[0], totalRefundedSet: money('206.50') };
    server = await startRecordedShopify([...page([{ ...listed, refunds: [refund] }], null)]);
    const kit = kitFor(server);
    const { envelopes } = await kit.reconcile(SHOP, WINDOW);
    const webhook = await kit.envelopes(
      kit.signed(JSON.stringify(inEuros), { 'x-shopify-topic': 'refunds/create', 'x-shopify-shop-domain': SHOP }),
    );
    const refunded = envelopes.filter((e) => e.eventType === 'sale.refunded');
    expect(webhook.envelopes).toHaveLength(1);
    expect(refunded.map((e) => [e.transaction, (e as { refund: unknown }).refund])).toEqual([
      [webhook.envelopes[0]!.transaction, (webhook.envelopes[0] as { refund: unknown }).refund],
    ]);
    expect(refunded[0]).toMatchObject({ transaction: { id: '450789469', currency: 'USD' }, refund: { id: '509562969', amount: 206.53 } });
  });

  it('a refund whose transactions are all test-mode reverses nothing, as refunds/create', async () => {
    const listed = graphqlOrderOf(restOrder, [
      { ...restRefund, transactions: restRefund.transactions.map((t: object) => ({ ...t, test: true })) },
    ]);
    server = await startRecordedShopify([...page([listed], null)]);
    const { envelopes } = await kitFor(server).reconcile(SHOP, WINDOW);
    expect(envelopes.map((e) => e.eventType)).toEqual(['sale.completed']);
  });

  it('an order that cannot be read back (gone, or a GraphQL error) is a failure; the others on the page still map', async () => {
    const [listing] = page(
      [
        graphqlOrder({ legacyResourceId: '2001' }),
        graphqlOrder({ legacyResourceId: '2002' }),
        graphqlOrder({ legacyResourceId: '2003', refunds: [] }),
      ],
      null,
    );
    server = await startRecordedShopify([
      listing!,
      { status: 200, body: JSON.stringify({ data: { order: null } }) },
      {
        status: 200,
        body: JSON.stringify({ data: { order: null }, errors: [{ message: 'Access denied', extensions: { code: 'ACCESS_DENIED' } }] }),
      },
      ...page([graphqlOrder({ legacyResourceId: '2003', refunds: [] })], null).slice(1),
    ]);
    const { envelopes, failures, examined } = await kitFor(server).reconcile(SHOP, WINDOW);
    expect(envelopes.map((e) => [e.eventType, e.transaction.id])).toEqual([['sale.completed', '2003']]);
    expect(failures).toEqual([
      { id: '2001', reason: expect.stringMatching(/not found/) },
      { id: '2002', reason: expect.stringMatching(/^order not read: .*ACCESS_DENIED/) },
    ]);
    expect(examined).toBe(3);
  });

  it('a refund that moved no money reverses nothing', async () => {
    server = await startRecordedShopify([
      ...page([graphqlOrder({ refunds: [{ legacyResourceId: '77', createdAt: null, totalRefundedSet: money('0.00') }] })], null),
    ]);
    const { envelopes } = await kitFor(server).reconcile(SHOP, WINDOW);
    expect(envelopes.map((e) => e.eventType)).toEqual(['sale.completed']);
  });

  it('the refund to store credit and the shipping-only refund in EUR are reversed with the ids and amounts their refunds/create give (refundShippingLines read)', async () => {
    // The two lifecycle refunds of lifecycle.test.ts, as the order lists them: the 2026-07 recorded
    // refund paid back as store credit (assembled: its transaction's gateway), and the recorded
    // shipping-only refund made live, paid back in EUR, without the shipping adjustment.
    const storeCreditRefund = fixtures.json<any>('refunds-create-line-items-2026-07.response.json').refund;
    const storeCredit = {
      ...storeCreditRefund,
      transactions: storeCreditRefund.transactions.map((t: object) => ({ ...t, gateway: 'shopify_store_credit' })),
    };
    const shipping = fixtures.json<any>('refunds-create-shipping-only-refund-shipping-lines.response.json').refund;
    const shippingInEuros = {
      ...shipping,
      order_adjustments: [],
      transactions: shipping.transactions.map((t: object) => ({ ...t, test: false, amount: '4.60', currency: 'EUR' })),
      refund_shipping_lines: shipping.refund_shipping_lines.map((l: object) => ({
        ...l,
        subtotal_amount_set: {
          shop_money: { amount: '5.00', currency_code: 'USD' },
          presentment_money: { amount: '4.60', currency_code: 'EUR' },
        },
      })),
    };
    server = await startRecordedShopify([...page([graphqlOrderOf(restOrder, [storeCredit, shippingInEuros])], null)]);
    const kit = kitFor(server);
    const { envelopes, failures } = await kit.reconcile(SHOP, WINDOW);
    const webhook = async (body: unknown) =>
      (await kit.envelopes(kit.signed(JSON.stringify(body), { 'x-shopify-topic': 'refunds/create', 'x-shopify-shop-domain': SHOP })))
        .envelopes[0] as { transaction: unknown; refund: unknown };
    const refunds = envelopes.filter((e) => e.eventType === 'sale.refunded');
    expect(refunds.map((e) => [e.eventId, e.transaction, e.refund])).toEqual([
      ['refunds/create:reconcile:450789469:509562969', { id: '450789469', currency: 'USD' }, { id: '509562969', amount: 209 }],
      ['refunds/create:reconcile:450789469:929361471', { id: '450789469', currency: 'USD' }, { id: '929361471', amount: 5 }],
    ]);
    for (const [i, body] of [storeCredit, shippingInEuros].entries()) {
      const sent = await webhook(body);
      expect([refunds[i]!.transaction, (refunds[i] as { refund: unknown }).refund]).toEqual([sent.transaction, sent.refund]);
    }
    expect(failures).toEqual([]);
  });

  it('an order not paid in full (PARTIALLY_PAID, or money outstanding) earns nothing, as orders/paid', async () => {
    server = await startRecordedShopify([
      ...page(
        [
          graphqlOrder({
            legacyResourceId: '3001',
            displayFinancialStatus: 'PARTIALLY_PAID',
            totalOutstandingSet: money('298.94'),
            refunds: [],
          }),
          graphqlOrder({ legacyResourceId: '3002', displayFinancialStatus: 'PAID', totalOutstandingSet: money('0.01'), refunds: [] }),
          graphqlOrder({ legacyResourceId: '3003', displayFinancialStatus: 'PAID', totalOutstandingSet: money('0.00'), refunds: [] }),
        ],
        null,
      ),
    ]);
    const { envelopes } = await kitFor(server).reconcile(SHOP, WINDOW);
    expect(envelopes.map((e) => [e.eventType, e.transaction.id])).toEqual([['sale.completed', '3003']]);
  });

  it('a refund with more transactions than are read, or in EUR with more lines than are read, is left to its webhook (never another amount under its id)', async () => {
    const listed = graphqlOrderOf(restOrder, [restRefund]) as { refunds: Array<Record<string, any>> };
    const [refund] = listed.refunds;
    const moreTransactions = { ...refund, transactions: { ...refund!.transactions, pageInfo: { hasNextPage: true } } };
    const euros = {
      ...refund,
      legacyResourceId: '77',
      transactions: {
        pageInfo: { hasNextPage: false },
        nodes: [{ kind: 'REFUND', status: 'SUCCESS', amountSet: { presentmentMoney: { amount: '190.00', currencyCode: 'EUR' } } }],
      },
      refundLineItems: { ...refund!.refundLineItems, pageInfo: { hasNextPage: true } },
    };
    // The same lines cut in USD (the shop's currency) need no rate: reversed.
    const dollars = { ...refund, legacyResourceId: '78', refundLineItems: { ...refund!.refundLineItems, pageInfo: { hasNextPage: true } } };
    server = await startRecordedShopify([...page([{ ...listed, refunds: [moreTransactions, euros, dollars] }], null)]);
    const { envelopes, failures } = await kitFor(server).reconcile(SHOP, WINDOW);
    expect(envelopes.filter((e) => e.eventType === 'sale.refunded').map((e) => (e as { refund: { id: string } }).refund.id)).toEqual([
      '78',
    ]);
    expect(failures).toEqual([]);
  });

  it("the customer's phone is read in the billing country (else the shipping country), as the webhook reads it", async () => {
    const order = {
      ...restOrder,
      email: null,
      contact_email: null,
      customer: null,
      phone: '6135550123',
      billing_address: { country_code: 'CA' },
    };
    server = await startRecordedShopify([...page([{ ...graphqlOrderOf(order), email: null }], null)]);
    const kit = kitFor(server);
    const { envelopes } = await kit.reconcile(SHOP, WINDOW);
    const webhook = await kit.envelopes(
      kit.signed(JSON.stringify(order), { 'x-shopify-topic': 'orders/paid', 'x-shopify-shop-domain': SHOP }),
    );
    expect(envelopes[0]).toMatchObject({ transaction: { customer: { type: 'phone', value: '+16135550123' } } });
    expect(webhook.envelopes[0]).toMatchObject({ transaction: { customer: { type: 'phone', value: '+16135550123' } } });
  });
});
