import { adapterKit } from '@loyalty-gateway/core/testing';
import { describe, expect, it } from 'vitest';
import { adapter } from './index.js';
import { fixtures } from './testing/index.js';

/**
 * One test per row of the README's "Money lifecycle" table that the webhook body alone decides
 * (order_transactions/create, which reads the order back, is map-unit.test.ts's). Shopify's own
 * recordings are used as they are; where a row needs what no recording shows, the test derives it
 * from one, visibly, saying which documented part it changes. The `*.response.json` recordings are
 * API answers: the webhook body is their inner object (`.order`, `.refund`, `.dispute`).
 */
const SHOP = 'bean-there.myshopify.com';
const kit = adapterKit(adapter, { settings: { appSecret: 'shpss_test_app_secret' }, now: () => new Date('2025-08-01T12:00:00Z') });
const deliver = (topic: string, body: unknown, eventId = 'evt-1', webhookId = 'delivery-1') =>
  kit.envelopes(
    kit.signed(typeof body === 'string' ? body : JSON.stringify(body), {
      'X-Shopify-Topic': topic,
      'X-Shopify-Shop-Domain': SHOP,
      'X-Shopify-Event-Id': eventId,
      'X-Shopify-Webhook-Id': webhookId,
    }),
  );
const recorded = (name: string, key: 'order' | 'refund' | 'dispute' | 'disputes') => fixtures.json<any>(name)[key];
const paidOrder = () => fixtures.json<Record<string, unknown>>('orders-paid.json');
/** A recorded test-gateway object made live: only its `test: true` flipped to false. */
const live = <T extends { test?: boolean }>(transaction: T): T => ({ ...transaction, test: false });

describe('paid in full or not (orders/paid)', () => {
  it("an order paid in full (financial_status partially_refunded, total_outstanding 0.00: Shopify's documented order) earns total_price once", async () => {
    const { envelopes, notes } = await deliver('orders/paid', fixtures.text('orders-paid.json'));
    expect(notes).toEqual([]);
    expect(envelopes).toMatchObject([{ eventType: 'sale.completed', transaction: { id: '450789469', total: 598.94, currency: 'USD' } }]);
  });

  it('a partly paid order (a deposit captured, the rest outstanding) earns nothing yet; the note says how much was received', async () => {
    // Shopify's documented order as REST describes a partial payment: financial_status
    // partially_paid ("The order has been partially paid") and what is still owed in total_outstanding.
    const { envelopes, notes } = await deliver('orders/paid', {
      ...paidOrder(),
      financial_status: 'partially_paid',
      total_outstanding: '298.94',
    });
    expect(envelopes).toEqual([]);
    expect(notes).toEqual([
      'order 450789469 is not paid in full (financial_status "partially_paid", 300.00 of 598.94 USD received, 298.94 outstanding): nothing earned yet (it earns once, when paid in full)',
    ]);
  });

  it('a recorded order whose financial_status says paid while total_outstanding is 131.09 earns nothing (money not received never earns)', async () => {
    const order = recorded('orders-create-phone-normalised.response.json', 'order');
    expect([order.financial_status, order.total_outstanding]).toEqual(['paid', '131.09']);
    const { envelopes, notes } = await deliver('orders/paid', order);
    expect(envelopes).toEqual([]);
    expect(notes[0]).toMatch(/^order 1073459981 is not paid in full .*50\.00 of 181\.09 USD received, 131\.09 outstanding/);
  });

  it.each(['pending', 'authorized', 'voided', null])('financial_status %s earns nothing', async (status) => {
    const { envelopes, notes } = await deliver('orders/paid', { ...paidOrder(), financial_status: status });
    expect(envelopes).toEqual([]);
    expect(notes[0]).toMatch(/is not paid in full/);
  });

  it('the same event delivered by two subscriptions (same X-Shopify-Event-Id, another X-Shopify-Webhook-Id) maps to one eventId', async () => {
    const first = await deliver('orders/paid', fixtures.text('orders-paid.json'), 'evt-two-subs', 'toml-delivery');
    const second = await deliver('orders/paid', fixtures.text('orders-paid.json'), 'evt-two-subs', 'api-delivery');
    expect(second.envelopes.map((e) => e.eventId)).toEqual(first.envelopes.map((e) => e.eventId));
    expect(first.envelopes[0]!.eventId).toBe('orders/paid:evt-two-subs');
  });
});

describe('refunds (refunds/create): the money of settled, live refund transactions, whatever the gateway', () => {
  it('a refund to store credit reverses like a money refund (its transaction: gateway shopify_store_credit)', async () => {
    // No Shopify recording of a store-credit refunds/create body exists. The GraphQL refundCreate
    // example (refund-to-store-credit.graphql-response.json) shows the refund's one transaction with
    // gateway "shopify_store_credit", kind REFUND, 10.0 USD; REST serialises that transaction as an
    // entry of transactions[]. Assembled: Shopify's 2026-07 REST refund (509562969, unedited
    // fixture) whose transaction's gateway is that one.
    const graphql = fixtures.json<any>('refund-to-store-credit.graphql-response.json').refundCreate.refund;
    expect(graphql.transactions.edges[0].node).toMatchObject({ gateway: 'shopify_store_credit', kind: 'REFUND' });
    const refund = recorded('refunds-create-line-items-2026-07.response.json', 'refund');
    const toStoreCredit = { ...refund, transactions: refund.transactions.map((t: object) => ({ ...t, gateway: 'shopify_store_credit' })) };
    const { envelopes } = await deliver('refunds/create', toStoreCredit);
    expect(envelopes).toEqual([
      {
        eventId: 'refunds/create:evt-1:509562969',
        eventType: 'sale.refunded',
        occurredAt: '2025-04-02T16:38:15.000Z',
        store: { id: SHOP },
        transaction: { id: '450789469', currency: 'USD' },
        refund: { id: '509562969', amount: 209 },
      },
    ]);
  });

  it("a cancellation's refund to a gift card reverses the gift card's 100.00; the same refund's test-gateway 10.00 moved no money", async () => {
    // The refund Shopify recorded for POST /orders/450789469/cancel.json with a refund (unedited):
    // gift_card 100.00 live, bogus 10.00 test, a refund_discrepancy adjustment.
    const [refund] = recorded('orders-cancelled-with-refund-giftcard-discrepancy.response.json', 'order').refunds;
    expect(refund.transactions.map((t: any) => [t.gateway, t.amount, t.test])).toEqual([
      ['bogus', '10.00', true],
      ['gift_card', '100.00', false],
    ]);
    const { envelopes } = await deliver('refunds/create', refund);
    expect(envelopes).toMatchObject([{ transaction: { id: '450789469', currency: 'USD' }, refund: { id: '929361464', amount: 100 } }]);
  });

  it('orders/cancelled reverses nothing by itself (sale.voided, which the ledger ignores) and says so', async () => {
    const order = recorded('orders-cancelled-with-refund-giftcard-discrepancy.response.json', 'order');
    const { envelopes, notes } = await deliver('orders/cancelled', order);
    expect(envelopes).toMatchObject([
      { eventType: 'sale.voided', occurredAt: '2025-04-02T16:31:11.000Z', transaction: { id: '450789469' } },
    ]);
    expect(notes).toEqual([
      'order 450789469 cancelled: nothing reversed by the cancellation itself (money given back arrives as refunds/create)',
    ]);
  });

  it('a refund with a transaction still pending is not reversed yet; settled (success) it reverses its amount, failed it moves no money', async () => {
    // Shopify's recorded refund 929361472 (a line and full shipping, 41.94 through the test gateway)
    // made live, its transaction in each status REST documents ("pending, failure, success, and error").
    const refund = recorded('refunds-create-line-item-plus-full-shipping.response.json', 'refund');
    const withStatus = (status: string) => ({ ...refund, transactions: refund.transactions.map((t: object) => ({ ...live(t), status })) });
    expect((await deliver('refunds/create', withStatus('pending'))).notes).toEqual([
      'refund 929361472 of order 450789469 has a refund transaction still pending: nothing reversed yet (reversed when its transactions settle)',
    ]);
    expect((await deliver('refunds/create', withStatus('success'))).envelopes).toMatchObject([
      { refund: { id: '929361472', amount: 41.94 } },
    ]);
    for (const status of ['failure', 'error']) {
      const { envelopes, notes } = await deliver('refunds/create', withStatus(status));
      expect(envelopes).toEqual([]);
      expect(notes[0]).toMatch(/moved no money/);
    }
  });

  it('the recorded test-gateway refunds (test: true) reverse nothing', async () => {
    for (const name of [
      'refunds-create-shipping-only-refund-shipping-lines.response.json',
      'refunds-create-line-item-plus-full-shipping.response.json',
    ]) {
      const { envelopes, notes } = await deliver('refunds/create', recorded(name, 'refund'));
      expect(envelopes).toEqual([]);
      expect(notes[0]).toMatch(/test-mode refund/);
    }
  });
});

describe('refunds in the presentment currency of a multi-currency shop: only their own share, at the rate of their own money sets', () => {
  const refund = () => recorded('refunds-create-shipping-only-refund-shipping-lines.response.json', 'refund');
  const eur = (amount: string) => ({ amount, currency_code: 'EUR' });
  const usd = (amount: string) => ({ amount, currency_code: 'USD' });
  const paidInEuros = (amount: string) => refund().transactions.map((t: object) => ({ ...live(t), amount, currency: 'EUR' }));

  it('shipping only: 4.60 EUR back for 5.00 USD of shipping reverses 5.00 USD (refund_shipping_lines, without the 2024-10 adjustment)', async () => {
    // Recording 929361471 made live and paid back in EUR, its shipping line's set in both
    // currencies, and no shipping adjustment (refunds/create no longer carries it from 2024-10).
    const body = {
      ...refund(),
      order_adjustments: [],
      transactions: paidInEuros('4.60'),
      refund_shipping_lines: refund().refund_shipping_lines.map((l: object) => ({
        ...l,
        subtotal_amount_set: { shop_money: usd('5.00'), presentment_money: eur('4.60') },
      })),
    };
    expect((await deliver('refunds/create', body)).envelopes).toMatchObject([
      { transaction: { id: '450789469', currency: 'USD' }, refund: { id: '929361471', amount: 5 } },
    ]);
  });

  it("tax only: a line's tax given back (its subtotal 0) converts at the rate of the line's total_tax_set", async () => {
    // The 2026-07 recorded refund's first line with only its tax refunded, in EUR.
    const lines = recorded('refunds-create-line-items-2026-07.response.json', 'refund').refund_line_items;
    const body = {
      ...refund(),
      refund_shipping_lines: [],
      order_adjustments: [],
      transactions: paidInEuros('3.66'),
      refund_line_items: [
        {
          ...lines[0],
          subtotal_set: { shop_money: usd('0.00'), presentment_money: eur('0.00') },
          total_tax_set: { shop_money: usd('3.98'), presentment_money: eur('3.66') },
        },
      ],
    };
    expect((await deliver('refunds/create', body)).envelopes).toMatchObject([{ refund: { amount: 3.98 } }]);
  });

  it('duties only (total_duties_set) and additional fees only (total_additional_fees_set, when nothing else states a rate)', async () => {
    const base = { ...refund(), refund_shipping_lines: [], order_adjustments: [], transactions: paidInEuros('9.20') };
    const duties = { ...base, total_duties_set: { shop_money: usd('10.00'), presentment_money: eur('9.20') } };
    expect((await deliver('refunds/create', duties)).envelopes).toMatchObject([{ refund: { amount: 10 } }]);
    const fees = { ...base, total_additional_fees_set: { shop_money: usd('10.00'), presentment_money: eur('9.20') } };
    expect((await deliver('refunds/create', fees)).envelopes).toMatchObject([{ refund: { amount: 10 } }]);
  });
});

describe('disputes (disputes/update, Shopify Payments): reversed only when final and lost', () => {
  // Each delivery is one Dispute of Shopify's recorded list (unedited), the body of the dispute topics.
  const dispute = (id: number) => recorded('disputes-list.response.json', 'disputes').find((d: { id: number }) => d.id === id);

  it('a lost chargeback reverses its amount on its order, keyed dispute:<id>', async () => {
    expect(dispute(297752803)).toMatchObject({ type: 'chargeback', status: 'lost', order_id: 625362839 });
    const { envelopes } = await deliver('disputes/update', dispute(297752803));
    expect(envelopes).toEqual([
      {
        eventId: 'disputes/update:evt-1:dispute:297752803',
        eventType: 'sale.refunded',
        occurredAt: '2025-08-01T12:00:00.000Z',
        store: { id: SHOP },
        transaction: { id: '625362839', currency: 'USD' },
        refund: { id: 'dispute:297752803', amount: 100 },
      },
    ]);
  });

  it('accepted by the merchant is a loss too; finalized_on is its time', async () => {
    // DisputeStatus ACCEPTED ("the merchant accepted the dispute"), with the time it was resolved.
    const { envelopes } = await deliver('disputes/update', {
      ...dispute(46484353),
      status: 'accepted',
      finalized_on: '2013-07-10T12:00:00-04:00',
    });
    expect(envelopes).toMatchObject([{ occurredAt: '2013-07-10T16:00:00.000Z', refund: { id: 'dispute:46484353', amount: 100 } }]);
  });

  it.each([
    [782360659, /won by the merchant: nothing was reversed, nothing to give back/],
    [85190714, /under_review\) of order 625362839 not final: reversed only if lost/],
    [670893524, /inquiry, needs_response\) of order 625362839 is not a chargeback/],
    [1052608616, /names no order/],
  ])('dispute %i reverses nothing (a note)', async (id, note) => {
    const { envelopes, notes } = await deliver('disputes/update', dispute(id));
    expect(envelopes).toEqual([]);
    expect(notes[0]).toMatch(note);
  });

  it('charge_refunded (deprecated: the merchant refunded, which came as refunds/create) reverses nothing; a lost one without a usable amount is a note', async () => {
    const refunded = await deliver('disputes/update', { ...dispute(297752803), status: 'charge_refunded' });
    expect(refunded.envelopes).toEqual([]);
    expect(refunded.notes[0]).toMatch(/not final/);
    const noAmount = await deliver('disputes/update', { ...dispute(297752803), amount: null });
    expect(noAmount.envelopes).toEqual([]);
    expect(noAmount.notes[0]).toMatch(/states no usable amount/);
  });

  it('the recorded single dispute (needs_response) and disputes/create reverse nothing', async () => {
    const { envelopes, notes } = await deliver('disputes/create', fixtures.json<any>('disputes-needs-response.response.json').dispute);
    expect(envelopes).toEqual([]);
    expect(notes[0]).toMatch(/dispute 598735659 \(chargeback, needs_response\) of order 625362839 not final/);
  });
});

describe('orders edited after payment, exchanges', () => {
  it('orders/edited is not a money event (more money captured is decision 5: nothing yet; money given back comes as refunds/create)', async () => {
    const { envelopes, notes } = await deliver('orders/edited', { order_edit: { order_id: 450789469 } });
    expect(envelopes).toEqual([]);
    expect(notes).toEqual(['Shopify topic orders/edited is not used for loyalty: nothing to do']);
  });

  it('orders/paid again for the same order with a higher total is the same sale id: the ledger keeps the first (decision 5)', async () => {
    const grown = await deliver('orders/paid', { ...paidOrder(), total_price: '698.94' }, 'evt-grown');
    expect(grown.envelopes).toMatchObject([{ eventType: 'sale.completed', transaction: { id: '450789469', total: 698.94 } }]);
  });
});

describe('the customer (vendorCustomer: email, then phone read in the order address country)', () => {
  it("Shopify's recorded order: its email; without any email, its E.164 phone", async () => {
    const order = {
      ...recorded('orders-create-phone-normalised.response.json', 'order'),
      financial_status: 'paid',
      total_outstanding: '0.00',
    };
    expect((await deliver('orders/paid', order)).envelopes[0]).toMatchObject({
      transaction: { customer: { type: 'email', value: 'jane@example.com' } },
    });
    // The same order from a guest who gave only a phone (emails removed): "+18885551234", as Shopify recorded it.
    const phoneOnly = { ...order, email: null, contact_email: null, customer: { ...order.customer, email: null } };
    expect((await deliver('orders/paid', phoneOnly)).envelopes[0]).toMatchObject({
      transaction: { customer: { type: 'phone', value: '+18885551234' } },
    });
  });

  it('a contact field of another type (an object email, a numeric phone, a customer or address that is no object) costs the customer, never the sale', async () => {
    // The whole order was unreadable before ("unreadable orders/paid payload (email)"): the sale earned nothing.
    const odd = { ...paidOrder(), email: {}, contact_email: 7, phone: 5551234, customer: 'Bob', billing_address: [] };
    const { envelopes } = await deliver('orders/paid', odd);
    expect(envelopes).toHaveLength(1);
    expect(envelopes[0]).toMatchObject({ eventType: 'sale.completed', transaction: { total: 598.94 } });
    expect(envelopes[0]!.eventType === 'sale.completed' && envelopes[0]!.transaction.customer).toBe(undefined);
  });
});
