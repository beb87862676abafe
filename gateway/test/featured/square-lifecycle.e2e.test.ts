import { adapter as square } from '@loyalty-gateway/adapter-square';
import {
  GIFT_CARD_DESTINATION,
  INVOICE,
  STORE_CREDIT_DESTINATION,
  assembledOrder,
  customAmountLine,
  disputeEvent,
  invoiceEvent,
  orderUpdatedEvent,
  paymentEvent,
  paymentOf,
  refundEvent,
  tender,
} from '@loyalty-gateway/adapter-square/testing';
import { startRecordedVendorServer, type RecordedVendorServer } from '@loyalty-gateway/core/testing';
import { testDialects } from '@loyalty-gateway/storage/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runReconcile, type ReconcileDeps } from '../../src/reconcile/run-reconcile.js';
import type { ConnectionSummary } from '../../src/stores/index.js';
import { openFeaturedGateway, type FeaturedGateway } from '../../src/testing/featured-gateway.js';
import {
  MEMBERS,
  SQUARE_LOCATION,
  SQUARE_NOTIFICATION_URL,
  SQUARE_SIGNATURE_KEY,
  featuredSeedDocument,
} from '../../src/testing/featured-seed.js';
import { adapterFixtureJson, vendorSignature } from '../../src/testing/native-fixtures.js';
import { reconcileDepsFor } from '../../src/testing/reconcile-deps.js';

// Square's money lifecycle (adapters/square/README.md, "Money lifecycle") through the real door:
// each event signed as Square signs it (HMAC over the notification URL + body), fetched back from
// a recorded Square API, on both dialects, the member's wallet asserted after every step and every
// step delivered twice. The payloads are Square's documented examples, assembled where no document
// shows one whole by the adapter's testing/lifecycle.ts (each builder names what it replaces;
// adapters/square/src/fixtures/SOURCES.md).
const member = MEMBERS.square.membershipId; // test.buyer@example.com: the email of Square's documented customer profile
const LOCATION = SQUARE_LOCATION;
const CUSTOMER_PATH = `/v2/customers/${INVOICE.customerId}`;
const customer = adapterFixtureJson('square', 'customer-retrieve.json');

interface Result {
  eventType: string;
  transactionId: string;
  refundId?: string;
  status: string;
  pointsEarned: number;
  pointsReversed?: number;
}
interface Answer {
  status: string;
  results: Result[];
  skipped: unknown[];
  notes: string[];
}

// The invoice of Square's ListInvoices example: DEPOSIT 1000 then BALANCE 3000 on order a65jnS8NXbfprvGJzY9F4fQTuaB, total 40.00.
const DEPOSIT_ID = 'DepositPaymentOfInvoice455';
const BALANCE_ID = 'BalancePaymentOfInvoice455';
const invoicePayment = (eventId: string, paymentId: string, amount: number, updatedAt: string) =>
  paymentEvent({ eventId, paymentId, orderId: INVOICE.orderId, amount, locationId: LOCATION, updatedAt });
const deposit = invoicePayment('evt-deposit', DEPOSIT_ID, INVOICE.deposit, '2021-01-23T15:29:50.000Z');
const balance = invoicePayment('evt-balance', BALANCE_ID, INVOICE.balance, '2021-06-15T10:00:00.000Z');
const invoiceTender = (id: string, amount: number) => tender(id, amount, INVOICE.orderId, LOCATION);
const invoiceOrder = (state: 'OPEN' | 'COMPLETED', tenders: object[], updatedAt: string) =>
  assembledOrder({
    id: INVOICE.orderId,
    locationId: LOCATION,
    customerId: INVOICE.customerId,
    state,
    total: INVOICE.total,
    tenders,
    // After the deposit the invoice's next_payment_amount_money (3000) is due; none once paid.
    netDue: state === 'OPEN' ? INVOICE.balance : 0,
    updatedAt,
    ...(state === 'COMPLETED' ? { closedAt: updatedAt } : {}),
  });
// "Adds the payment_id … to the tenders field of the associated order. Sets the order state to COMPLETED when the order is fully paid."
const afterDeposit = invoiceOrder('OPEN', [invoiceTender(DEPOSIT_ID, INVOICE.deposit)], '2021-01-23T15:29:56.000Z');
const afterBalance = invoiceOrder(
  'COMPLETED',
  [invoiceTender(DEPOSIT_ID, INVOICE.deposit), invoiceTender(BALANCE_ID, INVOICE.balance)],
  '2021-06-15T10:00:01.000Z',
);

describe.each(testDialects())('Square money lifecycle through /webhooks/square ($name)', ({ name: dialect }) => {
  let api: RecordedVendorServer;
  let gw: FeaturedGateway;
  let wallet = 0;
  beforeAll(async () => {
    api = await startRecordedVendorServer();
    api.route(CUSTOMER_PATH, { body: customer });
    gw = await openFeaturedGateway({ seedDocument: featuredSeedDocument({ squareApi: api.baseUrl }), dialect });
  });
  afterAll(async () => {
    await gw?.close();
    await api?.close();
  });

  const post = async (event: object): Promise<Answer> => {
    const body = Buffer.from(JSON.stringify(event));
    const response = await gw.app.inject({
      method: 'POST',
      url: '/webhooks/square',
      headers: {
        'content-type': 'application/json',
        ...vendorSignature(square.defaultAuth, SQUARE_SIGNATURE_KEY, SQUARE_NOTIFICATION_URL, body),
      },
      payload: body,
    });
    expect(response.statusCode).toBe(200);
    return response.json() as Answer;
  };
  /** Delivers the event, checks the wallet moved by `change`, then redelivers it: nothing more changes. */
  const deliver = async (event: object, change: number): Promise<Answer> => {
    const answer = await post(event);
    wallet += change;
    expect(await gw.balance(member)).toBe(wallet);
    const again = await post(event);
    for (const result of again.results) expect(result).toMatchObject({ status: 'duplicate', pointsEarned: 0 });
    expect(again.results).toHaveLength(answer.results.length);
    expect(await gw.balance(member)).toBe(wallet);
    return answer;
  };

  it('an invoice paid by DEPOSIT then BALANCE earns once, on the balance, exactly the order total', async () => {
    api.route(`/v2/orders/${INVOICE.orderId}`, { body: afterDeposit });
    expect(await deliver(deposit, 0)).toMatchObject({
      results: [],
      notes: [`Square order ${INVOICE.orderId}: 10.00 of 40.00 USD received; earns when paid in full`],
    });
    // Square's invoice.payment_made (moved to this location) names no payment and no amount: a note.
    expect(await deliver(invoiceEvent('invoice-payment-made-webhook.json', LOCATION), 0)).toMatchObject({
      results: [],
      notes: [expect.stringContaining('invoice.payment_made moves no money by itself')],
    });

    api.route(`/v2/orders/${INVOICE.orderId}`, { body: afterBalance });
    const earned = await deliver(balance, 40);
    expect(earned.results).toEqual([
      expect.objectContaining({ eventType: 'sale.completed', transactionId: INVOICE.orderId, status: 'processed', pointsEarned: 40 }),
    ]);
    // The order's own order.updated COMPLETED names the same sale (read with the payment that completed it): a duplicate.
    api.route(`/v2/payments/${BALANCE_ID}`, { body: { payment: paymentOf(balance) } });
    const completed = orderUpdatedEvent({
      eventId: 'evt-invoice-order-completed',
      orderId: INVOICE.orderId,
      locationId: LOCATION,
      state: 'COMPLETED',
      updatedAt: '2021-06-15T10:00:01.000Z',
      version: 5,
    });
    expect((await deliver(completed, 0)).results).toEqual([expect.objectContaining({ status: 'duplicate', pointsEarned: 0 })]);
  });

  it('split tender: the two legs of a PayOrder name one sale of the whole order, earned once', async () => {
    // Square's documented PayOrder answer: COMPLETED order lgwOlEityYPJtcuvKTVKT1pA986YY, total 2000, two CAPTURED tenders of 1000.
    const payOrder = adapterFixtureJson('square', 'pay-order-response-split-tender.json') as {
      order: { id: string; tenders: Array<{ payment_id: string }> };
    };
    api.route(`/v2/orders/${payOrder.order.id}`, { body: payOrder });
    const [first, second] = payOrder.order.tenders.map((leg, n) =>
      paymentEvent({
        eventId: `evt-leg-${n}`,
        paymentId: leg.payment_id,
        orderId: payOrder.order.id,
        amount: 1000,
        locationId: LOCATION,
        updatedAt: '2019-08-06T02:47:37.140Z',
        buyerEmail: MEMBERS.square.email,
      }),
    );
    expect((await deliver(first!, 20)).results).toEqual([expect.objectContaining({ status: 'processed', pointsEarned: 20 })]);
    expect((await deliver(second!, 0)).results).toEqual([expect.objectContaining({ status: 'duplicate', pointsEarned: 0 })]);
    // The first leg is disputed below: GetPayment answers it.
    api.route(`/v2/payments/${payOrder.order.tenders[0]!.payment_id}`, { body: { payment: paymentOf(first!) } });
  });

  it('an OPEN order paid in full (pickup, shipment, payment link) earns without waiting for COMPLETED', async () => {
    // Square's documented RetrieveOrder example: OPEN, total 550, its payment not yet among its tenders.
    const open = adapterFixtureJson('square', 'retrieve-order-response-open.json') as { order: { id: string } };
    api.route(`/v2/orders/${open.order.id}`, { body: open });
    const link = paymentEvent({
      eventId: 'evt-payment-link',
      paymentId: 'PaymentLinkPayment1',
      orderId: open.order.id,
      amount: 550,
      locationId: LOCATION,
      updatedAt: '2020-05-18T16:35:00.000Z',
      buyerEmail: MEMBERS.square.email,
    });
    expect((await deliver(link, 5)).results).toEqual([expect.objectContaining({ transactionId: open.order.id, pointsEarned: 5 })]);

    // Still OPEN ("Open orders can be updated"), the order grows by 3.00 and a second payment pays it in full again: the
    // added money earns, once (the adapter declares paidOrdersGrow: README, "Money lifecycle").
    const grown = assembledOrder({
      id: open.order.id,
      locationId: LOCATION,
      state: 'OPEN',
      total: 850,
      tenders: [tender('PaymentLinkPayment1', 550, open.order.id, LOCATION), tender('PaymentLinkPayment2', 300, open.order.id, LOCATION)],
      updatedAt: '2020-05-18T17:00:00.000Z',
    });
    api.route(`/v2/orders/${open.order.id}`, { body: grown });
    const more = paymentEvent({
      eventId: 'evt-payment-link-more',
      paymentId: 'PaymentLinkPayment2',
      orderId: open.order.id,
      amount: 300,
      locationId: LOCATION,
      updatedAt: '2020-05-18T17:00:00.000Z',
      buyerEmail: MEMBERS.square.email,
    });
    expect((await deliver(more, 3)).results).toEqual([
      expect.objectContaining({ transactionId: open.order.id, status: 'processed', pointsEarned: 3, warning: null }),
    ]);
  });

  it('a canceled invoice after its deposit: Square completes the order with the kept deposit as one custom amount, which earns', async () => {
    const ORDER = 'CanceledInvoiceOrder0001';
    const DEPOSIT = 'DepositOfCanceledInvoice1';
    const kept = tender(DEPOSIT, INVOICE.deposit, ORDER, LOCATION);
    const order = (state: 'OPEN' | 'COMPLETED') =>
      assembledOrder({
        id: ORDER,
        locationId: LOCATION,
        customerId: INVOICE.customerId,
        state,
        // Before: the invoice's 40.00 order. After the cancel: "replaces existing line items with a new CUSTOM_AMOUNT
        // line item totaling the partially paid amount" (docs/invoices-api/cancel-delete-invoices, current version).
        total: state === 'OPEN' ? INVOICE.total : INVOICE.deposit,
        ...(state === 'COMPLETED' ? { lineItems: [customAmountLine(INVOICE.deposit)], closedAt: '2021-02-01T09:00:00.000Z' } : {}),
        tenders: [kept],
        updatedAt: state === 'OPEN' ? '2021-01-23T15:29:56.000Z' : '2021-02-01T09:00:00.000Z',
      });
    api.route(`/v2/orders/${ORDER}`, { body: order('OPEN') });
    const paid = paymentEvent({
      eventId: 'evt-canceled-deposit',
      paymentId: DEPOSIT,
      orderId: ORDER,
      amount: INVOICE.deposit,
      locationId: LOCATION,
      updatedAt: '2021-01-23T15:29:50.000Z',
    });
    expect((await deliver(paid, 0)).notes).toEqual([`Square order ${ORDER}: 10.00 of 40.00 USD received; earns when paid in full`]);
    // Square's invoice.canceled: a note ("Square doesn't automatically refund any payment amount").
    expect((await deliver(invoiceEvent('invoice-canceled-webhook.json', LOCATION), 0)).notes).toEqual([
      expect.stringContaining('invoice.canceled moves no money by itself'),
    ]);
    api.route(`/v2/orders/${ORDER}`, { body: order('COMPLETED') });
    api.route(`/v2/payments/${DEPOSIT}`, { body: { payment: paymentOf(paid) } });
    const completed = orderUpdatedEvent({
      eventId: 'evt-canceled-invoice-order',
      orderId: ORDER,
      locationId: LOCATION,
      state: 'COMPLETED',
      updatedAt: '2021-02-01T09:00:00.000Z',
      version: 6,
    });
    expect((await deliver(completed, 10)).results).toEqual([
      expect.objectContaining({ eventType: 'sale.completed', transactionId: ORDER, status: 'processed', pointsEarned: 10 }),
    ]);
  });

  it('disputes: opened and won reverse nothing; lost reverses the disputed amount once, whichever event says it', async () => {
    // Square's documented dispute.created (EVIDENCE_REQUIRED) and dispute.state.updated (WON), moved to this location.
    expect((await deliver(disputeEvent('dispute-created-webhook.json', { locationId: LOCATION }), 0)).notes).toEqual([
      expect.stringContaining('is EVIDENCE_REQUIRED: only a LOST or ACCEPTED dispute reverses'),
    ]);
    expect((await deliver(disputeEvent('dispute-state-updated-webhook.json', { locationId: LOCATION }), 0)).notes).toEqual([
      expect.stringContaining('is WON: only a LOST or ACCEPTED dispute reverses'),
    ]);
    // The same documented event LOST, on the split tender's first leg, for 10.00 of its 20.00 ("can be less than the total").
    const lost = {
      locationId: LOCATION,
      disputeId: 'LostDisputeOfSplitTender1',
      state: 'LOST',
      paymentId: 'EnZdNAlWCmfh6Mt5FMNST1o7taB',
      amount: 1000,
      updatedAt: '2020-03-10T12:00:00.000Z',
    };
    const reversed = await deliver(disputeEvent('dispute-state-updated-webhook.json', { ...lost, eventId: 'evt-dispute-lost' }), -10);
    expect(reversed.results).toEqual([
      expect.objectContaining({
        eventType: 'sale.refunded',
        transactionId: 'lgwOlEityYPJtcuvKTVKT1pA986YY',
        refundId: 'dispute:LostDisputeOfSplitTender1',
        status: 'processed',
        pointsReversed: 10,
      }),
    ]);
    // The deprecated dispute.state.changed of the same dispute (both subscribed): the same reversal, a duplicate.
    const deprecated = disputeEvent('dispute-state-changed-webhook-deprecated.json', { ...lost, eventId: 'evt-dispute-lost-deprecated' });
    expect((await deliver(deprecated, 0)).results).toEqual([expect.objectContaining({ status: 'duplicate', pointsReversed: 0 })]);
  });

  it('refunds to a gift card and to store credit reverse like card refunds; pending and failed ones reverse nothing', async () => {
    const refund = (refundId: string, amount: number, extra: Partial<Parameters<typeof refundEvent>[0]> = {}) =>
      refundEvent({
        eventId: `evt-${refundId}`,
        refundId,
        paymentId: BALANCE_ID,
        amount,
        locationId: LOCATION,
        updatedAt: '2021-07-01T00:00:00.000Z',
        ...extra,
      });
    // 10.00 of the invoice's 40.00 to a Square gift card: 10 of its 40 points.
    const giftCard = await deliver(refund(`${BALANCE_ID}_toGiftCard`, 1000, { destination: GIFT_CARD_DESTINATION }), -10);
    expect(giftCard.results).toEqual([
      expect.objectContaining({
        transactionId: INVOICE.orderId,
        refundId: `${BALANCE_ID}_toGiftCard`,
        status: 'processed',
        pointsReversed: 10,
      }),
    ]);
    // 5.00 more to store credit: 15.00 refunded in all, 15 points.
    const storeCredit = await deliver(refund(`${BALANCE_ID}_toStoreCredit`, 500, { destination: STORE_CREDIT_DESTINATION }), -5);
    expect(storeCredit.results).toEqual([expect.objectContaining({ status: 'processed', pointsReversed: 5 })]);
    // Created PENDING, then FAILED: never reversed.
    const pending = await deliver(refund(`${BALANCE_ID}_failing`, 1000, { status: 'PENDING', type: 'refund.created' }), 0);
    expect(pending).toMatchObject({ results: [], notes: [expect.stringContaining('is PENDING: only COMPLETED refunds reverse')] });
    const failed = await deliver(refund(`${BALANCE_ID}_failing`, 1000, { status: 'FAILED', eventId: 'evt-failing-failed' }), 0);
    expect(failed).toMatchObject({ results: [], notes: [expect.stringContaining('is FAILED: only COMPLETED refunds reverse')] });
  });

  it('the reconciliation pull meets the same state (every payment listed, its refunds read): nothing new, the same wallet', async () => {
    const refunds = ['_toGiftCard', '_toStoreCredit', '_failing'].map((suffix) => `${BALANCE_ID}${suffix}`);
    api.route('/v2/payments', { body: { payments: [paymentOf(deposit), { ...paymentOf(balance), refund_ids: refunds }] } });
    for (const [id, amount, status, destination] of [
      [refunds[0]!, 1000, 'COMPLETED', GIFT_CARD_DESTINATION],
      [refunds[1]!, 500, 'COMPLETED', STORE_CREDIT_DESTINATION],
      [refunds[2]!, 1000, 'FAILED', undefined],
    ] as const) {
      const { data } = refundEvent({
        eventId: 'unused',
        refundId: id,
        paymentId: BALANCE_ID,
        amount,
        status,
        locationId: LOCATION,
        updatedAt: '2021-07-01T00:00:00.000Z',
        ...(destination ? { destination } : {}),
      });
      api.route(`/v2/refunds/${id}`, { body: { refund: data.object.refund } });
    }
    const connection = (await gw.store.listConnections({ vendor: 'square' }))[0]!;
    const deps = await reconcileDepsFor(gw, () => connection.createdAt.getTime() + 60_000);
    const run = await runReconcile(square, connection, deps, { kind: 'manual' });
    // Two payments; the sale (named by both) and the two completed refunds are duplicates; the failed refund is a note.
    expect(run).toMatchObject({ status: 'succeeded', found: 2, recovered: 0, duplicates: 4, failed: 0 });
    expect(await gw.balance(member)).toBe(wallet);
    expect(wallet).toBe(40 + 20 + 5 + 3 + 10 - 10 - 10 - 5);
  });
});

describe.each(testDialects())('the reconciliation pull alone meets the deposit-then-balance state ($name)', ({ name: dialect }) => {
  let api: RecordedVendorServer;
  let gw: FeaturedGateway;
  let connection: ConnectionSummary;
  let deps: ReconcileDeps;
  let clock = 0;
  beforeAll(async () => {
    api = await startRecordedVendorServer();
    api.route(CUSTOMER_PATH, { body: customer });
    gw = await openFeaturedGateway({ seedDocument: featuredSeedDocument({ squareApi: api.baseUrl }), dialect });
    connection = (await gw.store.listConnections({ vendor: 'square' }))[0]!;
    clock = connection.createdAt.getTime() + 60_000;
    deps = await reconcileDepsFor(gw, () => clock);
  });
  afterAll(async () => {
    await gw?.close();
    await api?.close();
  });

  it('no webhook came: the run after the deposit earns nothing, the run after the balance earns the order total once, as the webhooks do', async () => {
    api.route('/v2/payments', { body: { payments: [paymentOf(deposit)] } });
    api.route(`/v2/orders/${INVOICE.orderId}`, { body: afterDeposit });
    expect(await runReconcile(square, connection, deps, { kind: 'manual' })).toMatchObject({
      status: 'succeeded',
      found: 1,
      recovered: 0,
      duplicates: 0,
    });
    expect(await gw.balance(member)).toBe(0);
    // A second run over the same state changes nothing.
    clock += 15 * 60_000;
    expect(await runReconcile(square, connection, deps, { kind: 'manual' })).toMatchObject({ status: 'succeeded', recovered: 0 });
    expect(await gw.balance(member)).toBe(0);

    clock += 15 * 60_000;
    api.route('/v2/payments', { body: { payments: [paymentOf(deposit), paymentOf(balance)] } });
    api.route(`/v2/orders/${INVOICE.orderId}`, { body: afterBalance });
    expect(await runReconcile(square, connection, deps, { kind: 'manual' })).toMatchObject({
      status: 'succeeded',
      found: 2,
      recovered: 1,
      duplicates: 1,
    });
    expect(await gw.balance(member)).toBe(40); // the wallet the webhooks reach
    clock += 15 * 60_000;
    expect(await runReconcile(square, connection, deps, { kind: 'manual' })).toMatchObject({ recovered: 0, duplicates: 2 });
    expect(await gw.balance(member)).toBe(40);
  });

  it('the webhooks arriving late change nothing', async () => {
    const body = Buffer.from(JSON.stringify(balance));
    const late = await gw.app.inject({
      method: 'POST',
      url: '/webhooks/square',
      headers: {
        'content-type': 'application/json',
        ...vendorSignature(square.defaultAuth, SQUARE_SIGNATURE_KEY, SQUARE_NOTIFICATION_URL, body),
      },
      payload: body,
    });
    expect(late.json().results).toEqual([expect.objectContaining({ transactionId: INVOICE.orderId, status: 'duplicate' })]);
    expect(await gw.balance(member)).toBe(40);
  });
});
