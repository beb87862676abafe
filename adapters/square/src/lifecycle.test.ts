import { adapterKit, type RecordedReply, type RecordedVendorServer } from '@loyalty-gateway/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { adapter } from './index.js';
import {
  GIFT_CARD_DESTINATION,
  INVOICE,
  STORE_CREDIT_DESTINATION,
  assembledOrder,
  customAmountLine,
  disputeEvent,
  fixtures,
  invoiceEvent,
  orderUpdatedEvent,
  paymentEvent,
  paymentOf,
  refundEvent,
  startSquareApi,
  tender,
} from './testing/index.js';

// The money lifecycle of a Square order through the adapter's `map` (signed as Square signs,
// fetched back from a recorded Square API): README, "Money lifecycle".
const NOTIFICATION_URL = 'https://loyalty.example.com/webhooks/square';
const LOCATION = 'S8GWD5R9QB376';
const customer = fixtures.json('customer-retrieve.json');

let server: RecordedVendorServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function kitWith(routes: Record<string, RecordedReply[]>) {
  server = await startSquareApi({ [`/v2/customers/${INVOICE.customerId}`]: [{ body: customer }], ...routes });
  const kit = adapterKit(adapter, {
    settings: { signatureKey: 'sq-signature-key', notificationUrl: NOTIFICATION_URL, apiBaseUrl: server.baseUrl },
    credentials: { accessToken: 'EAAA-fake-token' },
    url: NOTIFICATION_URL,
  });
  const seen = server.seen;
  return { kit, seen, map: (event: unknown) => kit.envelopes(kit.signed(JSON.stringify(event))) };
}

// The invoice of Square's ListInvoices example: DEPOSIT 1000 then BALANCE 3000 on order a65jnS8NXbfprvGJzY9F4fQTuaB.
const DEPOSIT_ID = 'DepositPaymentOfInvoice455';
const BALANCE_ID = 'BalancePaymentOfInvoice455';
const ORDER_PATH = `/v2/orders/${INVOICE.orderId}`;
const deposit = paymentEvent({
  eventId: 'evt-deposit',
  paymentId: DEPOSIT_ID,
  orderId: INVOICE.orderId,
  amount: INVOICE.deposit,
  locationId: LOCATION,
  updatedAt: '2021-01-23T15:29:50.000Z',
});
const balance = paymentEvent({
  eventId: 'evt-balance',
  paymentId: BALANCE_ID,
  orderId: INVOICE.orderId,
  amount: INVOICE.balance,
  locationId: LOCATION,
  updatedAt: '2021-06-15T10:00:00.000Z',
});
const depositTender = tender(DEPOSIT_ID, INVOICE.deposit, INVOICE.orderId, LOCATION);
const balanceTender = tender(BALANCE_ID, INVOICE.balance, INVOICE.orderId, LOCATION);
// After the deposit: "Adds the payment_id … to the tenders field of the associated order" and the order stays
// OPEN ("Sets the order state to COMPLETED when the order is fully paid"); net due = the invoice's next_payment_amount_money.
const afterDeposit = assembledOrder({
  id: INVOICE.orderId,
  locationId: LOCATION,
  customerId: INVOICE.customerId,
  state: 'OPEN',
  total: INVOICE.total,
  tenders: [depositTender],
  netDue: INVOICE.balance,
  updatedAt: '2021-01-23T15:29:56.000Z',
});
const afterBalance = assembledOrder({
  id: INVOICE.orderId,
  locationId: LOCATION,
  customerId: INVOICE.customerId,
  state: 'COMPLETED',
  total: INVOICE.total,
  tenders: [depositTender, balanceTender],
  netDue: 0,
  updatedAt: '2021-06-15T10:00:01.000Z',
  closedAt: '2021-06-15T10:00:01.000Z',
});

describe('an invoice paid by DEPOSIT then BALANCE earns once, on the balance, the whole order total', () => {
  it('the deposit (a COMPLETED payment on an OPEN order paid in part) earns nothing: a note says how much is received', async () => {
    // Fails on the adapter before the money lifecycle: it earned the whole 40.00 on the 10.00 deposit.
    const { map, seen } = await kitWith({ [ORDER_PATH]: [{ body: afterDeposit }] });
    expect(await map(deposit)).toMatchObject({
      envelopes: [],
      notes: [`Square order ${INVOICE.orderId}: 10.00 of 40.00 USD received; earns when paid in full`],
    });
    // Nothing but the order is read for a sale that does not earn yet.
    expect(seen.map((r) => r.path)).toEqual([ORDER_PATH]);
  });

  it('the balance completes the order: one sale of the whole total, keyed by the order id', async () => {
    const { map } = await kitWith({ [ORDER_PATH]: [{ body: afterBalance }] });
    const { envelopes } = await map(balance);
    expect(envelopes).toEqual([
      {
        eventId: 'evt-balance',
        eventType: 'sale.completed',
        occurredAt: '2021-06-15T10:00:01.000Z',
        store: { id: LOCATION },
        transaction: {
          id: INVOICE.orderId,
          total: 40,
          currency: 'USD',
          channel: 'pos',
          customer: { type: 'email', value: 'test.buyer@example.com' },
          items: [],
        },
      },
    ]);
    // The deposit's event read again now (or by the reconciliation pull) names the same sale: the ledger keeps one.
    expect((await map(deposit)).envelopes).toEqual([{ ...envelopes[0], eventId: 'evt-deposit' }]);
  });

  it('an order.updated COMPLETED reads the order back and maps it by the same rule; OPEN and CANCELED read nothing', async () => {
    const { map, seen } = await kitWith({ [ORDER_PATH]: [{ body: afterBalance }] });
    const updated = (state: string) =>
      orderUpdatedEvent({
        eventId: `evt-${state}`,
        orderId: INVOICE.orderId,
        locationId: LOCATION,
        state,
        updatedAt: '2021-06-15T10:00:01.000Z',
        version: 5,
      });
    expect(await map(updated('OPEN'))).toMatchObject({
      envelopes: [],
      notes: [`Square order ${INVOICE.orderId} is OPEN: an order earns when a payment pays it in full or when it is COMPLETED`],
    });
    expect(await map(updated('CANCELED'))).toMatchObject({
      envelopes: [],
      notes: [`Square order ${INVOICE.orderId} is CANCELED: a canceled order is not paid, nothing to earn`],
    });
    expect(seen).toEqual([]);
    // The payment of its last tender (the balance) is not readable here (404): the order's own customer.
    expect((await map(updated('COMPLETED'))).envelopes).toEqual([
      expect.objectContaining({
        eventId: 'evt-COMPLETED',
        transaction: expect.objectContaining({
          id: INVOICE.orderId,
          total: 40,
          customer: { type: 'email', value: 'test.buyer@example.com' },
        }),
      }),
    ]);
    expect(seen.map((r) => r.path)).toEqual([ORDER_PATH, `/v2/payments/${BALANCE_ID}`, `/v2/customers/${INVOICE.customerId}`]);
  });

  it('an order.updated COMPLETED maps as the event of the payment that completed it: the same sale, the same receipt email', async () => {
    const withReceipt = paymentEvent({
      eventId: 'evt-balance-receipt',
      paymentId: BALANCE_ID,
      orderId: INVOICE.orderId,
      amount: INVOICE.balance,
      locationId: LOCATION,
      updatedAt: '2021-06-15T10:00:00.000Z',
      buyerEmail: 'receipt.buyer@example.com',
    });
    const { map, seen } = await kitWith({
      [ORDER_PATH]: [{ body: afterBalance }],
      [`/v2/payments/${BALANCE_ID}`]: [{ body: { payment: paymentOf(withReceipt) } }],
    });
    const completed = orderUpdatedEvent({
      eventId: 'evt-completed',
      orderId: INVOICE.orderId,
      locationId: LOCATION,
      state: 'COMPLETED',
      updatedAt: '2021-06-15T10:00:01.000Z',
      version: 5,
    });
    const [fromOrder] = (await map(completed)).envelopes;
    const [fromPayment] = (await map(withReceipt)).envelopes;
    expect(fromOrder).toEqual({ ...fromPayment, eventId: 'evt-completed' });
    expect(fromOrder?.transaction).toMatchObject({ customer: { type: 'email', value: 'receipt.buyer@example.com' } });
    // The receipt email names the buyer: no customer profile is read.
    expect(seen.map((r) => r.path)).toEqual([ORDER_PATH, `/v2/payments/${BALANCE_ID}`, ORDER_PATH]);
  });

  it('an order.updated COMPLETED whose order lists no payment received (an even exchange) earns nothing', async () => {
    // Square's documented order made COMPLETED, returning items of another order (SPEC Order.returns, OrderReturn
    // source_order_id), with no tender: what an even exchange may look like (unverified: no document shows one).
    const open = fixtures.json<{ order: Record<string, unknown> & { id: string } }>('retrieve-order-response-open.json');
    const exchange = { order: { ...open.order, state: 'COMPLETED', returns: [{ uid: 'uid2', source_order_id: INVOICE.orderId }] } };
    const { map, seen } = await kitWith({ [`/v2/orders/${open.order.id}`]: [{ body: exchange }] });
    const completed = orderUpdatedEvent({
      eventId: 'evt-exchange',
      orderId: open.order.id,
      locationId: LOCATION,
      state: 'COMPLETED',
      updatedAt: '2020-05-18T16:40:00.000Z',
      version: 2,
    });
    expect(await map(completed)).toMatchObject({
      envelopes: [],
      notes: [`Square order ${open.order.id} lists no payment received: an order.updated alone earns nothing`],
    });
    expect(seen.map((r) => r.path)).toEqual([`/v2/orders/${open.order.id}`]);
  });

  it('invoice events move no money by themselves: 200 with a note, nothing read', async () => {
    const { map, seen } = await kitWith({});
    for (const [name, type] of [
      ['invoice-payment-made-webhook.json', 'invoice.payment_made'],
      ['invoice-canceled-webhook.json', 'invoice.canceled'],
      ['invoice-refunded-webhook.json', 'invoice.refunded'],
      ['invoice-updated-webhook.json', 'invoice.updated'],
    ] as const) {
      expect(await map(invoiceEvent(name, LOCATION))).toMatchObject({
        envelopes: [],
        notes: [`Square ${type} moves no money by itself: invoice payments arrive as payment.*, their refunds as refund.*`],
      });
    }
    expect(seen).toEqual([]);
  });
});

describe('a canceled invoice after its deposit', () => {
  const CANCELED_ORDER = 'CanceledInvoiceOrder0001';
  const canceledDeposit = tender('DepositOfCanceledInvoice1', INVOICE.deposit, CANCELED_ORDER, LOCATION);
  const completedEvent = orderUpdatedEvent({
    eventId: 'evt-cancel-completed',
    orderId: CANCELED_ORDER,
    locationId: LOCATION,
    state: 'COMPLETED',
    updatedAt: '2021-02-01T09:00:00.000Z',
    version: 6,
  });

  it('Square completes the order with one CUSTOM_AMOUNT line of the money kept (docs, current version): the kept deposit earns', async () => {
    const kept = assembledOrder({
      id: CANCELED_ORDER,
      locationId: LOCATION,
      customerId: INVOICE.customerId,
      state: 'COMPLETED',
      total: INVOICE.deposit,
      lineItems: [customAmountLine(INVOICE.deposit)],
      tenders: [canceledDeposit],
      updatedAt: '2021-02-01T09:00:00.000Z',
      closedAt: '2021-02-01T09:00:00.000Z',
    });
    const { map } = await kitWith({ [`/v2/orders/${CANCELED_ORDER}`]: [{ body: kept }] });
    expect((await map(completedEvent)).envelopes).toEqual([
      expect.objectContaining({
        eventType: 'sale.completed',
        transaction: expect.objectContaining({
          id: CANCELED_ORDER,
          total: 10,
          items: [{ name: 'Custom amount', quantity: 1, unitPrice: 10 }],
        }),
      }),
    ]);
  });

  it('an order left CANCELED with the deposit on it (docs, older version) earns nothing, whichever event reads it', async () => {
    const canceled = assembledOrder({
      id: CANCELED_ORDER,
      locationId: LOCATION,
      state: 'CANCELED',
      total: INVOICE.total,
      tenders: [canceledDeposit],
      updatedAt: '2021-02-01T09:00:00.000Z',
      closedAt: '2021-02-01T09:00:00.000Z',
    });
    const { map } = await kitWith({ [`/v2/orders/${CANCELED_ORDER}`]: [{ body: canceled }] });
    const note = `Square order ${CANCELED_ORDER} is CANCELED: a canceled order is not paid, nothing to earn`;
    expect(await map(completedEvent)).toMatchObject({ envelopes: [], notes: [note] });
    const lateDeposit = paymentEvent({
      eventId: 'evt-late-deposit',
      paymentId: 'DepositOfCanceledInvoice1',
      orderId: CANCELED_ORDER,
      amount: INVOICE.deposit,
      locationId: LOCATION,
      updatedAt: '2021-01-23T15:29:50.000Z',
    });
    expect(await map(lateDeposit)).toMatchObject({ envelopes: [], notes: [note] });
  });
});

describe('split tender', () => {
  // Square's documented PayOrder answer: COMPLETED order lgwOlEityYPJtcuvKTVKT1pA986YY, total 2000, two CAPTURED card tenders of 1000.
  const payOrder = fixtures.json<{ order: { id: string; tenders: Array<{ payment_id: string }> } }>('pay-order-response-split-tender.json');
  const legs = payOrder.order.tenders.map((t, n) =>
    paymentEvent({
      eventId: `evt-leg-${n}`,
      paymentId: t.payment_id,
      orderId: payOrder.order.id,
      amount: 1000,
      locationId: LOCATION,
      updatedAt: '2019-08-06T02:47:37.140Z',
      buyerEmail: 'test.buyer@example.com',
    }),
  );

  it('each leg names the one sale of the whole order (the ledger keeps the first)', async () => {
    const { map } = await kitWith({ [`/v2/orders/${payOrder.order.id}`]: [{ body: payOrder }] });
    for (const leg of legs) {
      expect((await map(leg)).envelopes).toEqual([
        expect.objectContaining({ transaction: expect.objectContaining({ id: payOrder.order.id, total: 20 }) }),
      ]);
    }
  });

  it('a leg completed while the order still waits for the other earns nothing yet', async () => {
    const firstOnly = assembledOrder({
      id: payOrder.order.id,
      locationId: LOCATION,
      state: 'OPEN',
      total: 2000,
      tenders: [
        tender(payOrder.order.tenders[0]!.payment_id, 1000, payOrder.order.id, LOCATION),
        tender('VoidedLeg', 1000, payOrder.order.id, LOCATION, 'VOIDED'),
      ],
      updatedAt: '2019-08-06T02:47:36.500Z',
    });
    const { map } = await kitWith({ [`/v2/orders/${payOrder.order.id}`]: [{ body: firstOnly }] });
    expect(await map(legs[0])).toMatchObject({
      envelopes: [],
      notes: [`Square order ${payOrder.order.id}: 10.00 of 20.00 USD received; earns when paid in full`],
    });
  });
});

describe('payments that are not money received', () => {
  it("an APPROVED payment (an authorization: Square's documented payment.created) and a voided one (CancelPayment's answer) earn nothing and read nothing", async () => {
    const { map, seen } = await kitWith({});
    const approved = fixtures.json<{ data: { object: { payment: Record<string, unknown> } } }>('payment-created-webhook.json');
    approved.data.object.payment.location_id = LOCATION;
    expect(await map(approved)).toMatchObject({
      envelopes: [],
      notes: ['Square payment hYy9pRFVxpDsO1FB05SunFWUe9JZY is APPROVED: only COMPLETED payments earn'],
    });
    // "if an authorized payment is not completed (or canceled) within the time limit, the payment automatically gets
    // voided … and you get the payment.updated event": the documented payment.updated carrying CancelPayment's payment.
    const voided = fixtures.json<{ data: { id: string; object: { payment: Record<string, unknown> } } }>('payment-updated-webhook.json');
    const canceled = fixtures.json<{ payment: Record<string, unknown> }>('cancel-payment-response-canceled.json').payment;
    voided.data = { ...voided.data, id: canceled.id as string, object: { payment: { ...canceled, location_id: LOCATION } } };
    expect(await map(voided)).toMatchObject({
      envelopes: [],
      notes: ['Square payment 1QjqpBVyrI9S4H9sTGDWU9JeiWdZY is CANCELED: only COMPLETED payments earn'],
    });
    expect(seen).toEqual([]);
  });
});

describe('an OPEN order paid in full (pickup, shipment, payment link) earns without waiting for COMPLETED', () => {
  it("Square's documented OPEN order (total 550, no tenders yet listed) paid by one COMPLETED payment of 550", async () => {
    const open = fixtures.json<{ order: { id: string } }>('retrieve-order-response-open.json');
    const { map } = await kitWith({ [`/v2/orders/${open.order.id}`]: [{ body: open }] });
    const link = (amount: number) =>
      paymentEvent({
        eventId: 'evt-link',
        paymentId: 'PaymentLinkPayment1',
        orderId: open.order.id,
        amount,
        locationId: LOCATION,
        updatedAt: '2020-05-18T16:35:00.000Z',
      });
    expect((await map(link(550))).envelopes).toEqual([
      expect.objectContaining({
        occurredAt: '2020-05-18T16:35:00.000Z',
        transaction: expect.objectContaining({ id: open.order.id, total: 5.5 }),
      }),
    ]);
    expect(await map(link(100))).toMatchObject({
      envelopes: [],
      notes: [`Square order ${open.order.id}: 1.00 of 5.50 USD received; earns when paid in full`],
    });
  });
});

describe('refunds to any destination reverse alike', () => {
  const PAYMENT_PATH = `/v2/payments/${BALANCE_ID}`;
  it.each([
    ['a Square gift card', GIFT_CARD_DESTINATION],
    ['store credit', STORE_CREDIT_DESTINATION],
    ['the card (no destination given)', undefined],
  ])('a COMPLETED refund to %s reverses its amount on the sale of its payment', async (_, destination) => {
    const { map } = await kitWith({ [PAYMENT_PATH]: [{ body: { payment: paymentOf(balance) } }] });
    const refund = refundEvent({
      eventId: 'evt-refund',
      refundId: `${BALANCE_ID}_refund1`,
      paymentId: BALANCE_ID,
      amount: 1000,
      locationId: LOCATION,
      updatedAt: '2021-07-01T00:00:00.000Z',
      ...(destination ? { destination } : {}),
    });
    expect((await map(refund)).envelopes).toEqual([
      {
        eventId: 'evt-refund',
        eventType: 'sale.refunded',
        occurredAt: '2021-07-01T00:00:00.000Z',
        store: { id: LOCATION },
        transaction: { id: INVOICE.orderId, currency: 'USD' },
        refund: { id: `${BALANCE_ID}_refund1`, amount: 10 },
      },
    ]);
  });

  it.each(['PENDING', 'REJECTED', 'FAILED'])('a %s refund reverses nothing and reads nothing', async (status) => {
    const { map, seen } = await kitWith({});
    const refund = refundEvent({
      eventId: 'evt-refund',
      refundId: `${BALANCE_ID}_refund2`,
      paymentId: BALANCE_ID,
      amount: 1000,
      locationId: LOCATION,
      updatedAt: '2021-07-01T00:00:00.000Z',
      status,
    });
    expect(await map(refund)).toMatchObject({
      envelopes: [],
      notes: [expect.stringContaining(`is ${status}: only COMPLETED refunds reverse`)],
    });
    expect(seen).toEqual([]);
  });
});

describe('disputes', () => {
  const DISPUTED = 'fbmsaEOpoARDKxiSGH1fqPuqoqFZY'; // the documented dispute's payment
  const disputedPayment = { payment: { ...paymentOf(balance), id: DISPUTED } };
  const reversal = (eventId: string, disputeId: string) => ({
    eventId,
    eventType: 'sale.refunded',
    occurredAt: '2020-02-19T21:34:41.851Z',
    store: { id: LOCATION },
    transaction: { id: INVOICE.orderId, currency: 'USD' },
    refund: { id: `dispute:${disputeId}`, amount: 88.01 },
  });

  it.each(['LOST', 'ACCEPTED'])(
    'a %s dispute reverses the disputed amount on the sale of its payment, keyed dispute:<id>',
    async (state) => {
      const { map, seen } = await kitWith({ [`/v2/payments/${DISPUTED}`]: [{ body: disputedPayment }] });
      const event = disputeEvent('dispute-state-updated-webhook.json', { locationId: LOCATION, state });
      expect((await map(event)).envelopes).toEqual([reversal('e89ff114-1972-4be0-9481-a621f2385fff', 'ORSEVtZAJxb37RA1EiGw')]);
      expect(seen.map((r) => [r.path, r.headers.authorization])).toEqual([[`/v2/payments/${DISPUTED}`, 'Bearer EAAA-fake-token']]);
    },
  );

  it('the deprecated dispute.state.changed (id in dispute_id) and a dispute at data.object.object reverse under the same key', async () => {
    const { map } = await kitWith({ [`/v2/payments/${DISPUTED}`]: [{ body: disputedPayment }] });
    const deprecated = disputeEvent('dispute-state-changed-webhook-deprecated.json', { locationId: LOCATION, state: 'LOST' });
    expect((await map(deprecated)).envelopes).toEqual([reversal('e89ff114-1972-4be0-9481-a621f2385fff', 'ORSEVtZAJxb37RA1EiGw')]);
    // The schema's key (`object`) instead of the examples' (`dispute`).
    const schemaShaped = disputeEvent('dispute-state-updated-webhook.json', { locationId: LOCATION, state: 'LOST' });
    schemaShaped.data.object = { object: schemaShaped.data.object.dispute };
    expect((await map(schemaShaped)).envelopes).toEqual([reversal('e89ff114-1972-4be0-9481-a621f2385fff', 'ORSEVtZAJxb37RA1EiGw')]);
  });

  it('created, won and still open disputes reverse nothing and read nothing', async () => {
    const { map, seen } = await kitWith({});
    expect(await map(disputeEvent('dispute-state-updated-webhook.json', { locationId: LOCATION }))).toMatchObject({
      envelopes: [],
      notes: ['Square dispute ORSEVtZAJxb37RA1EiGw is WON: only a LOST or ACCEPTED dispute reverses (nothing was reversed for it)'],
    });
    expect(await map(disputeEvent('dispute-created-webhook.json', { locationId: LOCATION }))).toMatchObject({
      envelopes: [],
      notes: [
        'Square dispute ORSEVtZAJxb37RA1EiGw is EVIDENCE_REQUIRED: only a LOST or ACCEPTED dispute reverses (nothing was reversed for it)',
      ],
    });
    for (const state of ['INQUIRY_EVIDENCE_REQUIRED', 'INQUIRY_PROCESSING', 'INQUIRY_CLOSED', 'PROCESSING']) {
      expect((await map(disputeEvent('dispute-state-updated-webhook.json', { locationId: LOCATION, state }))).envelopes).toEqual([]);
    }
    expect(seen).toEqual([]);
  });

  it('a dispute id or payment id that is not a Square id is never fetched: a note', async () => {
    const { map, seen } = await kitWith({});
    const dotted = disputeEvent('dispute-state-updated-webhook.json', {
      locationId: LOCATION,
      state: 'LOST',
      paymentId: '../v2/locations',
    });
    expect(await map(dotted)).toMatchObject({ envelopes: [], notes: ['dispute.state.updated carried no dispute object'] });
    expect(seen).toEqual([]);
  });
});
