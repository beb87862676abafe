import { adapterKit, type RecordedVendorServer } from '@loyalty-gateway/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adapter } from './index.js';
import { INVOICE, assembledOrder, fixtures, paymentEvent, paymentOf, startSquareApi, tender } from './testing/index.js';
import { pullPayments } from './reconcile.js';
import type { SquareContext } from './api.js';

// Square's documented payment.updated (unedited): its payment object is what ListPayments lists.
const payment = fixtures.json<{ data: { object: { payment: Record<string, unknown> & { id: string } } } }>('payment-updated-completed.json')
  .data.object.payment;
const window = { since: new Date('2020-02-01T00:00:00.000Z'), until: new Date('2020-02-08T00:00:00.000Z') };
const range =
  'location_id=S8GWD5R9QB376&updated_at_begin_time=2020-02-01T00%3A00%3A00.000Z&updated_at_end_time=2020-02-08T00%3A00%3A00.000Z&sort_field=UPDATED_AT&sort_order=ASC&limit=100';
let server: RecordedVendorServer;

beforeAll(async () => {
  server = await startSquareApi({
    [`/v2/payments?${range}`]: [{ body: { payments: [{ ...payment, status: 'APPROVED' }], cursor: 'NEXT-PAGE' } }],
    [`/v2/payments?${range}&cursor=NEXT-PAGE`]: [{ body: { payments: [{ ...payment, refund_ids: ['../../v2/locations'] }] } }],
    ['/v2/orders/03O3USaPaAaFnI6kkwB1JxGgBsUZY']: [{ body: fixtures.json('order-retrieve.json') }],
    ['/v2/customers/JDKYHBWT1D4F8MFH63DBMEN8Y4']: [{ body: fixtures.json('customer-retrieve.json') }],
  });
});
afterAll(() => server.close());

describe('Square reconciliation pull', () => {
  const ctx = () =>
    adapterKit(adapter, {
      settings: { signatureKey: 'k', notificationUrl: 'https://loyalty.example.com/webhooks/square', apiBaseUrl: server.baseUrl },
      credentials: { accessToken: 'EAAA-fake-token' },
    }).context('S8GWD5R9QB376') as SquareContext;

  it("lists the location's payments updated in the window, follows the cursor, maps each as its payment.updated would", async () => {
    const first = await pullPayments(ctx(), window, null);
    // APPROVED is not COMPLETED: nothing to earn, as on the webhook.
    expect(first).toEqual({ envelopes: [], failures: [], examined: 1, cursor: 'NEXT-PAGE' });
    const second = await pullPayments(ctx(), window, first.cursor);
    expect(second.cursor).toBeNull();
    expect(second.envelopes).toEqual([
      expect.objectContaining({
        eventType: 'sale.completed',
        transaction: expect.objectContaining({ id: '03O3USaPaAaFnI6kkwB1JxGgBsUZY' }),
      }),
    ]);
    // A refund id that is not a Square id is never put in a URL.
    expect(second.failures).toEqual([{ id: '../../v2/locations', reason: 'not a Square refund id: never fetched' }]);
    expect(server.seen.every((r) => !r.path.startsWith('/v2/locations') && !r.path.startsWith('/v2/refunds'))).toBe(true);
  });
});

describe('Square reconciliation pull: an invoice paid by deposit then balance', () => {
  // The deposit and balance payments of Square's documented DEPOSIT + BALANCE invoice (README, "Money lifecycle").
  const LOCATION = 'S8GWD5R9QB376';
  const pay = (id: string, amount: number, updatedAt: string) =>
    paymentOf(paymentEvent({ eventId: 'unused', paymentId: id, orderId: INVOICE.orderId, amount, locationId: LOCATION, updatedAt }));
  const deposit = pay('DepositPaymentOfInvoice455', INVOICE.deposit, '2020-02-02T10:00:00.000Z');
  const balance = pay('BalancePaymentOfInvoice455', INVOICE.balance, '2020-02-03T10:00:00.000Z');
  const order = (state: 'OPEN' | 'COMPLETED', tenders: unknown[]) =>
    assembledOrder({
      id: INVOICE.orderId,
      locationId: LOCATION,
      customerId: INVOICE.customerId,
      state,
      total: INVOICE.total,
      tenders: tenders as never,
      updatedAt: '2020-02-03T10:00:00.000Z',
    });
  let api: RecordedVendorServer;
  beforeAll(async () => {
    api = await startSquareApi({ ['/v2/customers/JDKYHBWT1D4F8MFH63DBMEN8Y4']: [{ body: fixtures.json('customer-retrieve.json') }] });
  });
  afterAll(() => api.close());
  const ctx = () =>
    adapterKit(adapter, {
      settings: { signatureKey: 'k', notificationUrl: 'https://loyalty.example.com/webhooks/square', apiBaseUrl: api.baseUrl },
      credentials: { accessToken: 'EAAA-fake-token' },
    }).context(LOCATION) as SquareContext;

  it("maps each listed payment with the webhook's paid-in-full rule: nothing while only the deposit is in, the whole order once paid", async () => {
    api.route(`/v2/payments?${range}`, { body: { payments: [deposit] } });
    api.route(`/v2/orders/${INVOICE.orderId}`, { body: order('OPEN', [tender(deposit.id, INVOICE.deposit, INVOICE.orderId, LOCATION)]) });
    expect(await pullPayments(ctx(), window, null)).toEqual({ envelopes: [], failures: [], examined: 1, cursor: null });

    api.route(`/v2/payments?${range}`, { body: { payments: [deposit, balance] } });
    api.route(`/v2/orders/${INVOICE.orderId}`, {
      body: order('COMPLETED', [
        tender(deposit.id, INVOICE.deposit, INVOICE.orderId, LOCATION),
        tender(balance.id, INVOICE.balance, INVOICE.orderId, LOCATION),
      ]),
    });
    const page = await pullPayments(ctx(), window, null);
    // Both payments name the one sale of the order (the ledger keeps the first): 40.00, the order total.
    expect(page.envelopes.map((e) => [e.eventType, e.transaction.id, 'total' in e.transaction ? e.transaction.total : null])).toEqual([
      ['sale.completed', INVOICE.orderId, 40],
      ['sale.completed', INVOICE.orderId, 40],
    ]);
  });
});
