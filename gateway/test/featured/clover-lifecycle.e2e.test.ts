import { adapter as clover } from '@loyalty-gateway/adapter-clover';
import { startRecordedVendorServer, type RecordedVendorServer } from '@loyalty-gateway/core/testing';
import { testDialects } from '@loyalty-gateway/storage/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runReconcile, type ReconcileDeps } from '../../src/reconcile/run-reconcile.js';
import type { ConnectionSummary } from '../../src/stores/index.js';
import { openFeaturedGateway, type FeaturedGateway } from '../../src/testing/featured-gateway.js';
import { CLOVER_AUTH_CODE, CLOVER_MERCHANT, MEMBERS, featuredSeedDocument } from '../../src/testing/featured-seed.js';
import { adapterFixtureJson } from '../../src/testing/native-fixtures.js';
import { reconcileDepsFor } from '../../src/testing/reconcile-deps.js';

/**
 * Clover's money lifecycle (adapters/clover/README.md, "Money lifecycle") through the real door:
 * X-Clover-Auth, each notification's order fetched back from the recorded Clover API, the ledger
 * on both dialects, Jane's wallet asserted after every step and after a redelivery of it.
 *
 * No public document shows an order with a voided payment, several payments, a refund `status` or
 * a credit: each state below is Clover's documented paid order (order-paid.json: 38.34, Jane as
 * its customer, 38 points) with documented parts changed — `paymentState` (SDK enum), payments
 * built from the documented Payment fields (id, order, tender, amount, tipAmount, result,
 * createdTime), a voided payment shaped as Yipyy measured it on the sandbox (`result: "VOIDED"`,
 * `voidReason: "USER_CANCEL"`, `refunds.elements` empty), refunds from docs.clover.com's refund
 * response reference plus the SDK's `status`, and a `modifiedTime` that moves on with each change.
 */
const XYZ = `/v3/merchants/${CLOVER_MERCHANT}`;
const member = MEMBERS.clover.membershipId;
const documentedOrder = adapterFixtureJson('clover', 'order-paid.json') as Record<string, unknown>;
const EARNED = 38; // 38.34 at one point per unit of currency

type Payment = Record<string, unknown> & { id: string };
type Result = {
  eventType: string;
  status: string;
  pointsEarned?: number;
  pointsReversed?: number;
  refundId?: string;
  refundsWithdrawn?: string[];
  pointsRestored?: number;
  warning?: string | null;
};

let clock = 1_537_980_000_000; // Clover's clock: every new state of an order is modified later
const nextTime = () => (clock += 60_000);

const payment = (orderId: string, id: string, amount: number, result = 'SUCCESS'): Payment => ({
  id,
  order: { id: orderId },
  tender: { label: 'Credit Card' },
  amount,
  tipAmount: 0,
  taxAmount: 0,
  createdTime: 1_537_970_990_000,
  result,
});
const voided = (p: Payment): Payment => ({ ...p, result: 'VOIDED', voidReason: 'USER_CANCEL', refunds: { elements: [] } });

/** Order `id` in `paymentState`, modified now, with these fields (payments, refunds...) changed. */
const orderState = (id: string, paymentState: string | null, fields: Record<string, unknown> = {}) => ({
  ...documentedOrder,
  id,
  paymentState,
  modifiedTime: nextTime(),
  ...fields,
});

describe.each(testDialects())('Clover money lifecycle through /webhooks/clover ($name)', ({ name }) => {
  let api: RecordedVendorServer;
  let gw: FeaturedGateway;
  let wallet = 0;
  /** Every notification sent, to replay them all at the end. */
  const sent: Buffer[] = [];
  /** Each order's latest state, as Clover now answers it. */
  const latest = new Map<string, Record<string, unknown>>();

  beforeAll(async () => {
    api = await startRecordedVendorServer();
    api.route(`${XYZ}/customers/CUSTVJT2ABCRS`, { body: adapterFixtureJson('clover', 'customer.json') });
    gw = await openFeaturedGateway({ seedDocument: featuredSeedDocument({ cloverApi: api.baseUrl }), dialect: name });
  });
  afterAll(async () => {
    await gw?.close();
    await api?.close();
  });

  const post = (body: Buffer) =>
    gw.app.inject({
      method: 'POST',
      url: '/webhooks/clover',
      headers: { 'content-type': 'application/json', 'x-clover-auth': CLOVER_AUTH_CODE },
      payload: body,
    });
  const notification = (objectId: string, ts: number) =>
    Buffer.from(JSON.stringify({ appId: 'DRKVJT2ZRRRSC', merchants: { [CLOVER_MERCHANT]: [{ objectId, type: 'UPDATE', ts }] } }));

  /**
   * Clover now answers `order` for its id; the notification (`O:` the order, or `P:` a payment of
   * it) is delivered: the answer's results and notes. The wallet must move by `delta`; a
   * redelivery of the same notification then changes nothing (every result a duplicate).
   */
  async function step(order: Record<string, unknown> & { id: string; modifiedTime: number }, delta: number, objectId = `O:${order.id}`) {
    api.route(`${XYZ}/orders/${order.id}`, { body: order });
    latest.set(order.id, order);
    const body = notification(objectId, order.modifiedTime);
    sent.push(body);
    const response = await post(body);
    expect(response.statusCode, response.body).toBe(200);
    const answer = response.json() as { results: Result[]; notes: string[]; skipped: unknown[] };
    expect(answer.skipped).toEqual([]);
    wallet += delta;
    expect(await gw.balance(member)).toBe(wallet);

    const again = await post(body);
    expect(again.statusCode).toBe(200);
    // The same again: every event a duplicate (a list of reversals giving nothing back is not in the answer).
    expect((again.json() as { results: Result[] }).results.map((r) => [r.eventType, r.status])).toEqual(
      answer.results.filter((r) => r.eventType !== 'refunds.listed').map((r) => [r.eventType, 'duplicate']),
    );
    expect(await gw.balance(member)).toBe(wallet);
    return answer;
  }
  const kinds = (results: Result[]) => results.map((r) => [r.eventType, r.status]);

  it('paid in full: earns the order total once', async () => {
    const { results } = await step(
      orderState('LCPAIDVJT2ABC', 'PAID', { payments: { elements: [payment('LCPAIDVJT2ABC', 'PYPAIDVJT2ABC', 3834)] } }),
      EARNED,
    );
    expect(kinds(results)).toEqual([['sale.completed', 'processed']]);
    expect(results[0]).toMatchObject({ membershipId: member, pointsEarned: EARNED });
  });

  it('one tender of a split voided the same day (left in payments, VOIDED), notified as a payment: exactly its part reversed; paid again: given back', async () => {
    const id = 'LCSPLITVJT2AB';
    const [first, second] = [payment(id, 'PYSPLITAVJT2A', 2000), payment(id, 'PYSPLITBVJT2A', 1834)];
    await step(orderState(id, 'PAID', { payType: 'SPLIT_CUSTOM', payments: { elements: [first, second] } }), EARNED);

    // Clover's P: notification of the voided tender: the payment names its order, which is read as for O:.
    api.route(`${XYZ}/payments/${second.id}`, { body: voided(second) });
    const voidState = orderState(id, 'PAID', { payType: 'SPLIT_CUSTOM', payments: { elements: [first, voided(second)] } });
    const reversal = Math.floor((EARNED * 1834) / 3834); // 18.34 of 38.34: 18 points
    const { results } = await step(voidState, -reversal, `P:${second.id}`);
    expect(kinds(results)).toEqual([
      ['sale.completed', 'duplicate'],
      ['sale.refunded', 'processed'],
    ]);
    expect(results[1]).toMatchObject({ refundId: `void:${second.id}`, pointsReversed: reversal });

    // The customer pays the 18.34 again with another card: paid in full, no void listed any more.
    const repaid = orderState(id, 'PAID', {
      payType: 'SPLIT_CUSTOM',
      payments: { elements: [first, voided(second), payment(id, 'PYSPLITCVJT2A', 1834)] },
    });
    const back = await step(repaid, reversal);
    expect(kinds(back.results)).toEqual([
      ['refunds.listed', 'processed'],
      ['sale.completed', 'duplicate'],
    ]);
    expect(back.results[0]).toMatchObject({ refundsWithdrawn: [`void:${second.id}`], pointsRestored: reversal });
  });

  it('the only payment voided the same day, moved to the order voids (payments empty, OPEN): all of it reversed', async () => {
    const id = 'LCVOIDSVJT2AB';
    const card = payment(id, 'PYVOIDSVJT2AB', 3834);
    await step(orderState(id, 'PAID', { payments: { elements: [card] } }), EARNED);
    const { results } = await step(orderState(id, 'OPEN', { payments: { elements: [] }, voids: { elements: [voided(card)] } }), -EARNED);
    expect(kinds(results)).toEqual([['sale.refunded', 'processed']]);
    expect(results[0]).toMatchObject({ refundId: `void:${card.id}`, pointsReversed: EARNED });
  });

  it('a same-day full refund Clover records as a void (REFUNDED, the payment VOIDED, refunds empty): all of it reversed', async () => {
    const id = 'LCYIPYYVJT2AB';
    const card = payment(id, 'PYYIPYYVJT2AB', 3834);
    await step(orderState(id, 'PAID', { payments: { elements: [card] } }), EARNED);
    const { results } = await step(
      orderState(id, 'REFUNDED', { payments: { elements: [voided(card)] }, refunds: { elements: [] } }),
      -EARNED,
    );
    expect(kinds(results)).toEqual([
      ['sale.completed', 'duplicate'],
      ['sale.refunded', 'processed'],
    ]);
  });

  it('a refund reverses its part; voided afterwards, it is given back', async () => {
    const id = 'LCREFUNDVJT2A';
    const card = payment(id, 'PYREFUNDVJT2A', 3834);
    await step(orderState(id, 'PAID', { payments: { elements: [card] } }), EARNED);
    const refund = {
      id: 'RFLCREFUNDVJT',
      amount: 1000,
      taxAmount: 0,
      createdTime: clock + 1_000,
      payment: { id: card.id },
      status: 'SUCCESS',
      voided: false,
    };
    const part = Math.floor((EARNED * 1000) / 3834); // 10.00 of 38.34: 9 points
    const refunded = await step(
      orderState(id, 'PARTIALLY_REFUNDED', { payments: { elements: [card] }, refunds: { elements: [refund] } }),
      -part,
    );
    expect(refunded.results[1]).toMatchObject({
      eventType: 'sale.refunded',
      status: 'processed',
      refundId: refund.id,
      pointsReversed: part,
    });

    const voidedRefund = { ...refund, voided: true, status: 'VOIDED' };
    const back = await step(orderState(id, 'PAID', { payments: { elements: [card] }, refunds: { elements: [voidedRefund] } }), part);
    expect(kinds(back.results)).toEqual([
      ['refunds.listed', 'processed'],
      ['sale.completed', 'duplicate'],
    ]);
    expect(back.results[0]).toMatchObject({ refundsWithdrawn: [refund.id], pointsRestored: part });
  });

  it('a manual refund (credits) reverses its part', async () => {
    const id = 'LCCREDITVJT2A';
    const credit = { id: 'CRLCCREDITVJT', orderRef: { id }, amount: 500, taxAmount: 0, tipAmount: 0, createdTime: clock + 1_000 };
    const part = Math.floor((EARNED * 500) / 3834); // 5.00 of 38.34: 4 points
    await step(orderState(id, 'PAID', { payments: { elements: [payment(id, 'PYCREDITVJT2A', 3834)] } }), EARNED);
    const { results } = await step(
      orderState(id, 'PAID', { payments: { elements: [payment(id, 'PYCREDITVJT2A', 3834)] }, credits: { elements: [credit] } }),
      -part,
    );
    expect(results[1]).toMatchObject({ eventType: 'sale.refunded', refundId: `credit:${credit.id}`, pointsReversed: part });
  });

  it('partly paid (the first tender of a split): nothing until paid in full, a note saying how much is received', async () => {
    const id = 'LCPARTVJT2ABC';
    const first = payment(id, 'PYPARTAVJT2AB', 2000);
    const partly = await step(orderState(id, 'PARTIALLY_PAID', { payType: 'SPLIT_CUSTOM', payments: { elements: [first] } }), 0);
    expect(kinds(partly.results)).toEqual([]);
    expect(partly.notes).toEqual([
      `order ${id} payment state is PARTIALLY_PAID (20.00 of 38.34 received): not paid in full, nothing to earn yet`,
    ]);
    const full = await step(
      orderState(id, 'PAID', { payType: 'SPLIT_CUSTOM', payments: { elements: [first, payment(id, 'PYPARTBVJT2AB', 1834)] } }),
      EARNED,
    );
    expect(full.results[0]).toMatchObject({ eventType: 'sale.completed', status: 'processed', pointsEarned: EARNED });
  });

  it('a pre-authorisation hold (result AUTH) earns nothing; captured, it earns', async () => {
    const id = 'LCHOLDVJT2ABC';
    const hold = await step(orderState(id, 'PAID', { payments: { elements: [payment(id, 'PYHOLDVJT2ABC', 3834, 'AUTH')] } }), 0);
    expect(hold.notes).toEqual([
      `order ${id} is PAID (0.00 of 38.34 received (38.34 held by a pre-authorisation)): nothing to earn until it is captured`,
    ]);
    await step(orderState(id, 'PAID', { payments: { elements: [payment(id, 'PYHOLDVJT2ABC', 3834)] } }), EARNED);
  });

  it('edited after payment, a line added and more money captured: the added money earns, once', async () => {
    const id = 'LCEDITVJT2ABC';
    const card = payment(id, 'PYEDITAVJT2AB', 3834);
    await step(orderState(id, 'PAID', { payments: { elements: [card] } }), EARNED);
    const lines = (documentedOrder.lineItems as { elements: unknown[] }).elements;
    const edited = orderState(id, 'PAID', {
      total: 4834,
      lineItems: { elements: [...lines, { id: 'LNEDITVJT2ABC', name: 'Dessert', price: 1000, isRevenue: true }] },
      payments: { elements: [card, payment(id, 'PYEDITBVJT2AB', 1000)] },
    });
    // 48 points on 48.34 where 38 were earned on 38.34: 10 more (the adapter declares paidOrdersGrow).
    const { results } = await step(edited, 10);
    expect(results[0]).toMatchObject({ eventType: 'sale.completed', status: 'processed', pointsEarned: 10, warning: null });
  });

  it('every notification sent so far, delivered again now (each order read in its current state): nothing changes', async () => {
    for (const body of sent) {
      const response = await post(body);
      expect(response.statusCode).toBe(200);
      expect((response.json() as { results: Result[] }).results.every((r) => r.status === 'duplicate')).toBe(true);
    }
    expect(await gw.balance(member)).toBe(wallet);
  });

  describe('the reconciliation pull', () => {
    let connection: ConnectionSummary;
    let deps: ReconcileDeps;
    let runClock = 0;
    const listed: Array<Record<string, unknown>> = [];

    beforeAll(async () => {
      connection = (await gw.store.listConnections({ vendor: 'clover' }))[0]!;
      runClock = connection.createdAt.getTime() + 60 * 60 * 1000;
      deps = await reconcileDepsFor(gw, () => runClock);
      api.route(`${XYZ}/orders`, { body: { elements: listed } });
    });

    it('meets a void whose notification never came, and a voided refund whose order was not marked modified: the wallet ends where the webhooks would have put it', async () => {
      // Paid, notified: earned.
      const id = 'LCMISSEDVJT2A';
      const card = payment(id, 'PYMISSEDVJT2A', 3834);
      await step(orderState(id, 'PAID', { payments: { elements: [card] } }), EARNED);
      // Voided later; Clover's notification never arrived. The listing of modified orders shows it.
      const voidState = orderState(id, 'OPEN', { payments: { elements: [voided(card)] } });
      api.route(`${XYZ}/orders/${id}`, { body: voidState });
      listed.push(voidState);

      // A refund, notified and reversed; then voided without its order being marked modified (whether
      // Clover does is undocumented) and without a notification: only the read-back of orders with a
      // recent reversal (window.revisit) sees it.
      const rid = 'LCREVISITVJT2';
      const rcard = payment(rid, 'PYREVISITVJT2', 3834);
      await step(orderState(rid, 'PAID', { payments: { elements: [rcard] } }), EARNED);
      const refund = {
        id: 'RFLCREVISITVJ',
        amount: 1000,
        createdTime: clock + 1_000,
        payment: { id: rcard.id },
        status: 'SUCCESS',
        voided: false,
      };
      const refundState = orderState(rid, 'PARTIALLY_REFUNDED', { payments: { elements: [rcard] }, refunds: { elements: [refund] } });
      const part = Math.floor((EARNED * 1000) / 3834);
      await step(refundState, -part);
      api.route(`${XYZ}/orders/${rid}`, {
        body: { ...refundState, paymentState: 'PAID', refunds: { elements: [{ ...refund, voided: true, status: 'VOIDED' }] } },
      });

      // The orders the webhooks followed to the end are listed too, in their final states.
      listed.push(latest.get('LCSPLITVJT2AB')!, latest.get('LCVOIDSVJT2AB')!);

      const run = await runReconcile(clover, connection, deps, { kind: 'manual' });
      expect(run).toMatchObject({ status: 'succeeded', failed: 0, error: null });
      expect(run!.recovered).toBe(2); // the missed void, and the withdrawal of the voided refund
      wallet += -EARNED + part;
      expect(await gw.balance(member)).toBe(wallet);
    });

    it('a second run finds the same states: nothing changes', async () => {
      runClock += 15 * 60 * 1000;
      const run = await runReconcile(clover, connection, deps, { kind: 'manual' });
      expect(run).toMatchObject({ status: 'succeeded', recovered: 0, failed: 0 });
      expect(await gw.balance(member)).toBe(wallet);
    });

    it('the void notification arriving late changes nothing either', async () => {
      const response = await post(notification('O:LCMISSEDVJT2A', clock));
      expect(kinds((response.json() as { results: Result[] }).results)).toEqual([['sale.refunded', 'duplicate']]);
      expect(await gw.balance(member)).toBe(wallet);
    });
  });
});
