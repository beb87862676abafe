import { createHmac } from 'node:crypto';
import { startRecordedVendorServer, type RecordedVendorServer } from '@loyalty-gateway/core/testing';
import { adapter as woocommerce } from '@loyalty-gateway/adapter-woocommerce';
import { testDialects } from '@loyalty-gateway/storage/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runReconcile, type ReconcileDeps } from '../../src/reconcile/run-reconcile.js';
import type { ConnectionSummary } from '../../src/stores/index.js';
import { openFeaturedGateway, type FeaturedGateway } from '../../src/testing/featured-gateway.js';
import { seedWithWooCommerce } from '../../src/testing/featured-seed.js';
import { adapterFixture, adapterFixtureJson } from '../../src/testing/native-fixtures.js';
import { reconcileDepsFor } from '../../src/testing/reconcile-deps.js';

const SECRET = 'wc-store-webhook-secret-0123';
const MEMBER = 'MBR-WOO';
const ORDERS = '/wp-json/wc/v3/orders';

// WooCommerce's documented orders, unedited: 727 paid (processing, 29.35, date_modified 19:28:08),
// the same order updated to completed (date_modified 19:30:35), 729 paid (processing, 54.40), all
// billed to john.doe@example.com (MBR-WOO).
const created727 = adapterFixture('woocommerce', 'order-727.json');
const completed727 = adapterFixture('woocommerce', 'order-727-update-completed.json');
const doc727 = adapterFixtureJson('woocommerce', 'order-727-update-completed.json') as Record<string, unknown>;
const doc729 = (adapterFixtureJson('woocommerce', 'orders-batch.json') as { create: Array<Record<string, unknown>> }).create[1]!;
const [refund726, refund724] = (adapterFixtureJson('woocommerce', 'orders-list.json') as Array<{ refunds: unknown[] }>)[1]!.refunds;

/**
 * A later state of a documented order, assembled here (WooCommerce documents no paid order with
 * refunds, nor a cancelled, failed, on-hold or refunded one): the documented order with another
 * status, order 723's documented refund entries (`{ id, refund, total }`: 726 -10.00, 724 -9.00) or
 * one in their shape, and the time of the change in date_modified_gmt (date_modified is the site's
 * time, three hours behind in the documented examples).
 */
function later(order: Record<string, unknown>, gmt: string, changes: Record<string, unknown>): Record<string, unknown> {
  const local = new Date(Date.parse(`${gmt}Z`) - 3 * 60 * 60 * 1000).toISOString().slice(0, 19);
  return { ...order, date_modified: local, date_modified_gmt: gmt, ...changes };
}

// Points: the merchant earns 1 point per 1.00, floored; a refund reverses floor(earned × refunded / total) in all.
const EARNED_727 = 29; // 29.35
const EARNED_729 = 54; // 54.40

describe.each(testDialects())('WooCommerce money lifecycle through /webhooks/woocommerce and the reconciliation ($name)', ({ name }) => {
  /**
   * The site's REST API as a store that keeps state: each order as it is now (`include=` reads it
   * back), and the orders whose date_modified moved since the last run (the modified_after listing).
   */
  const current = new Map<string, Record<string, unknown>>();
  let modified: Array<Record<string, unknown>> = [];
  let api: RecordedVendorServer;
  let site: string;

  /** One gateway fed by WooCommerce's webhooks, one that only reconciles: both must hold the same wallet after every step. */
  interface Side {
    gw: FeaturedGateway;
    connection: ConnectionSummary;
    deps: ReconcileDeps;
    clock: number;
  }
  let hooks: Side;
  let pulls: Side;
  let runs = 0;

  async function openSide(): Promise<Side> {
    const gw = await openFeaturedGateway({ seedDocument: seedWithWooCommerce(site, SECRET, 'featured'), dialect: name });
    const [connection] = (await gw.store.listConnections({ vendor: 'woocommerce' })) as ConnectionSummary[];
    const side = { gw, connection: connection!, clock: connection!.createdAt.getTime() + 60 * 60 * 1000 } as Side;
    side.deps = await reconcileDepsFor(gw, () => side.clock);
    return side;
  }

  beforeAll(async () => {
    api = await startRecordedVendorServer({
      respond: ({ path, query }) => {
        if (path !== ORDERS) return undefined;
        const include = query.get('include');
        const body = include === null ? modified : include.split(',').flatMap((id) => (current.has(id) ? [current.get(id)!] : []));
        return { body, headers: { 'x-wp-totalpages': '1' } };
      },
    });
    site = `${api.baseUrl}/`;
    hooks = await openSide();
    pulls = await openSide();
  });
  afterAll(async () => {
    await hooks?.gw.close();
    await pulls?.gw.close();
    await api?.close();
  });

  /** A delivery as WC_Webhook::deliver() sends it: the body signed with the store's webhook secret. */
  async function deliver(body: Buffer | Record<string, unknown>, topic = 'order.updated') {
    const bytes = Buffer.isBuffer(body) ? body : Buffer.from(JSON.stringify(body));
    const response = await hooks.gw.app.inject({
      method: 'POST',
      url: '/webhooks/woocommerce',
      payload: bytes,
      headers: {
        'content-type': 'application/json',
        'x-wc-webhook-source': site,
        'x-wc-webhook-topic': topic,
        'x-wc-webhook-signature': createHmac('sha256', SECRET).update(bytes).digest('base64'),
        'x-wc-webhook-id': '14',
        'x-wc-webhook-delivery-id': String(runs),
      },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as { results: Array<Record<string, unknown>>; notes?: string[] };
  }

  /** Delivered, then delivered again as WooCommerce may (the same bytes): the second changes nothing. */
  async function deliverTwice(body: Buffer | Record<string, unknown>, topic = 'order.updated') {
    const answer = await deliver(body, topic);
    const wallet = await hooks.gw.balance(MEMBER);
    const again = await deliver(body, topic);
    expect(again.results.map((r) => r.status)).toEqual(again.results.map(() => 'duplicate'));
    expect(await hooks.gw.balance(MEMBER)).toBe(wallet);
    return answer;
  }

  /** One reconciliation run of a side (the next 15-minute slot): it must succeed, every envelope accepted. */
  async function reconcile(side: Side) {
    side.clock += 15 * 60 * 1000;
    runs += 1;
    const run = await runReconcile(woocommerce, side.connection, side.deps, { kind: 'schedule', slot: `tick-${runs}` });
    expect(run).toMatchObject({ status: 'succeeded', failed: 0 });
    return run!;
  }

  /** WooCommerce after a step: the order as it is now; `moved` when its date_modified changed (the listing shows it). */
  function woo(state: Record<string, unknown>, { moved = true } = {}) {
    current.set(String(state.id), state);
    modified = moved ? [state] : [];
  }

  /** The reconciling side reads WooCommerce as it is now and must hold the wallet the webhooks gave. */
  async function reconciled(wallet: number) {
    await reconcile(pulls);
    expect(await pulls.gw.balance(MEMBER)).toBe(wallet);
  }

  const pick = (answer: { results: Array<Record<string, unknown>> }) =>
    answer.results.map((r) => [r.eventType, r.refundId ?? null, r.status, r.pointsEarned || r.pointsReversed || r.pointsRestored || 0]);

  it('a paid order earns once (order.created, then the documented update to completed is a duplicate)', async () => {
    expect(await hooks.gw.balance(MEMBER)).toBe(0);
    woo(JSON.parse(created727.toString('utf8')));
    expect(pick(await deliverTwice(created727, 'order.created'))).toEqual([['sale.completed', null, 'processed', EARNED_727]]);
    expect(await hooks.gw.balance(MEMBER)).toBe(EARNED_727);
    await reconciled(EARNED_727);

    woo(doc727);
    expect(pick(await deliverTwice(completed727))).toEqual([['sale.completed', null, 'duplicate', 0]]);
    expect(await hooks.gw.balance(MEMBER)).toBe(EARNED_727);
    await reconciled(EARNED_727);
  });

  const refunded = later(doc727, '2017-03-23T10:00:00', { refunds: [refund726] });
  const refundDeleted = later(doc727, '2017-03-23T11:00:00', { refunds: [] });

  it('a refund (726, -10.00) reverses its part', async () => {
    woo(refunded);
    expect(pick(await deliverTwice(refunded))).toEqual([
      ['sale.completed', null, 'duplicate', 0],
      ['sale.refunded', '726', 'processed', 9], // floor(29 × 10.00 / 29.35)
    ]);
    expect(await hooks.gw.balance(MEMBER)).toBe(EARNED_727 - 9);
    await reconciled(EARNED_727 - 9);
  });

  it('the refund deleted (order.updated whose refunds[] no longer lists it) gives the points back exactly; the older payload still listing it, delivered late, reverses nothing again', async () => {
    woo(refundDeleted);
    const answer = await deliverTwice(refundDeleted);
    expect(pick(answer)).toEqual([
      ['refunds.listed', null, 'processed', 9],
      ['sale.completed', null, 'duplicate', 0],
    ]);
    expect(answer.results[0]).toMatchObject({ refundsWithdrawn: ['726'] });
    expect(await hooks.gw.balance(MEMBER)).toBe(EARNED_727);
    await reconciled(EARNED_727);

    // WooCommerce builds a body when it delivers it, but a retry by hand (or a proxy) can resend an older one.
    expect(pick(await deliverTwice(refunded))).toEqual([
      ['sale.completed', null, 'duplicate', 0],
      ['sale.refunded', '726', 'duplicate', 0],
    ]);
    expect(await hooks.gw.balance(MEMBER)).toBe(EARNED_727);
    woo(refundDeleted, { moved: false });
    await reconciled(EARNED_727);
  });

  const refundedAgain = later(doc727, '2017-03-23T12:00:00', { refunds: [refund724] });

  it('a stale delivery (an older state, without the newer refund 724) never undoes that refund', async () => {
    woo(refundedAgain);
    expect(pick(await deliverTwice(refundedAgain))).toEqual([
      ['sale.completed', null, 'duplicate', 0],
      ['sale.refunded', '724', 'processed', 8], // floor(29 × 9.00 / 29.35)
    ]);
    expect(await hooks.gw.balance(MEMBER)).toBe(EARNED_727 - 8);
    await reconciled(EARNED_727 - 8);

    // The 11:00 state (no refunds) arrives after the 12:00 one: refund 724 was recorded at 12:00, after it.
    expect(pick(await deliverTwice(refundDeleted))).toEqual([['sale.completed', null, 'duplicate', 0]]);
    expect(await hooks.gw.balance(MEMBER)).toBe(EARNED_727 - 8);
    woo(refundedAgain, { moved: false });
    await reconciled(EARNED_727 - 8);
  });

  // Items added after payment (the REST API recalculates any status): line 316 once more, total 41.35.
  const lines = doc727.line_items as Array<Record<string, unknown>>;
  const edited = {
    line_items: [...lines, { ...lines[1], id: 319 }],
    total: '41.35',
  };
  const editedState = later(doc727, '2017-03-23T12:30:00', { ...edited, refunds: [refund724] });

  it('an order edited after payment with more money captured changes nothing: the sale is a duplicate whose answer names the other total', async () => {
    woo(editedState);
    const answer = await deliverTwice(editedState);
    expect(pick(answer)).toEqual([
      ['sale.completed', null, 'duplicate', 0],
      ['sale.refunded', '724', 'duplicate', 0],
    ]);
    expect(answer.results[0]!.warning).toMatch(/^Transaction 727 was already received at .+ with another total/);
    expect(await hooks.gw.balance(MEMBER)).toBe(EARNED_727 - 8);
    await reconciled(EARNED_727 - 8);
  });

  const cancelled = later(doc727, '2017-03-23T13:00:00', { ...edited, status: 'cancelled', refunds: [refund724] });
  const reopened = later(doc727, '2017-03-23T14:00:00', { ...edited, status: 'processing', refunds: [refund724] });
  const CANCELLATION = 'cancelled:727:2017-03-23T13:00:00.000Z';

  it('cancelled after payment reverses all that is left; reopened (back to processing) gives it back; the cancelled payload delivered late changes nothing', async () => {
    woo(cancelled);
    const answer = await deliverTwice(cancelled);
    expect(pick(answer)).toEqual([
      ['sale.refunded', '724', 'duplicate', 0],
      ['sale.refunded', CANCELLATION, 'processed', EARNED_727 - 8],
    ]);
    expect(answer.notes).toContain(`order 727 was paid and is cancelled: its earn is reversed in full (${CANCELLATION})`);
    expect(await hooks.gw.balance(MEMBER)).toBe(0);
    await reconciled(0);

    woo(reopened);
    const back = await deliverTwice(reopened);
    expect(pick(back)).toEqual([
      ['refunds.listed', null, 'processed', EARNED_727 - 8],
      ['sale.completed', null, 'duplicate', 0],
      ['sale.refunded', '724', 'duplicate', 0],
    ]);
    expect(back.results[0]).toMatchObject({ refundsWithdrawn: [CANCELLATION] });
    expect(await hooks.gw.balance(MEMBER)).toBe(EARNED_727 - 8);
    await reconciled(EARNED_727 - 8);

    expect(pick(await deliverTwice(cancelled))).toEqual([
      ['sale.refunded', '724', 'duplicate', 0],
      ['sale.refunded', CANCELLATION, 'duplicate', 0],
    ]);
    expect(await hooks.gw.balance(MEMBER)).toBe(EARNED_727 - 8);
    woo(reopened, { moved: false });
    await reconciled(EARNED_727 - 8);
  });

  it('a dispute: on-hold (opened) keeps the earn with a note; failed (Stripe: lost) reverses all that is left', async () => {
    const onHold = later(doc727, '2017-03-23T15:00:00', { ...edited, status: 'on-hold', refunds: [refund724] });
    woo(onHold);
    const held = await deliverTwice(onHold);
    expect(pick(held)).toEqual([['sale.refunded', '724', 'duplicate', 0]]);
    expect(held.notes?.join(' ')).toMatch(/order 727 is on-hold after payment: its earn stands/);
    expect(await hooks.gw.balance(MEMBER)).toBe(EARNED_727 - 8);
    await reconciled(EARNED_727 - 8);

    const failed = later(doc727, '2017-03-23T16:00:00', { ...edited, status: 'failed', refunds: [refund724] });
    woo(failed);
    expect(pick(await deliverTwice(failed))).toEqual([
      ['sale.refunded', '724', 'duplicate', 0],
      ['sale.refunded', 'failed:727:2017-03-23T16:00:00.000Z', 'processed', EARNED_727 - 8],
    ]);
    expect(await hooks.gw.balance(MEMBER)).toBe(0);
    await reconciled(0);
  });

  // Order 729: refunded in full ("Order fully refunded.", WooCommerce's automatic refund of the rest),
  // then that refund deleted (Stripe deletes a refund that failed or was cancelled): the status stays
  // refunded (issue #68658), date_modified does not move and no webhook comes (research note §1).
  const refunded729 = later(doc729, '2017-03-24T09:00:00', {
    status: 'refunded',
    refunds: [{ id: 742, refund: 'Order fully refunded.', total: '-54.40' }],
  });
  const deleted729 = { ...refunded729, refunds: [] };

  it('refunded in full reverses all; the refund deleted with no webhook and no new date_modified is given back by the next reconciliation, which reads the order back (revisit)', async () => {
    woo(doc729);
    expect(pick(await deliverTwice(doc729, 'order.created'))).toEqual([['sale.completed', null, 'processed', EARNED_729]]);
    expect(await hooks.gw.balance(MEMBER)).toBe(EARNED_729);
    await reconciled(EARNED_729);

    woo(refunded729);
    expect(pick(await deliverTwice(refunded729))).toEqual([['sale.refunded', '742', 'processed', EARNED_729]]);
    expect(await hooks.gw.balance(MEMBER)).toBe(0);
    await reconciled(0);

    // The deletion: nothing is delivered and the listing by modification time does not show 729.
    woo(deleted729, { moved: false });
    for (const side of [hooks, pulls]) {
      const seen = api.seen.length;
      const run = await reconcile(side);
      expect(run).toMatchObject({ found: 2, recovered: 1 }); // 727 and 729 read back (both hold reversals): 729's refund given back
      const revisited = api.seen.slice(seen).find((r) => r.query.has('include'))!;
      expect(revisited.query.get('include')!.split(',').sort()).toEqual(['727', '729']);
      expect(await side.gw.balance(MEMBER)).toBe(EARNED_729);
    }

    // WooCommerce 11.2+ may still deliver order.updated for it (built when sent: the deleted state);
    // and the refunded state delivered late reverses nothing again.
    expect(pick(await deliverTwice(deleted729))).toEqual([]);
    expect(pick(await deliverTwice(refunded729))).toEqual([['sale.refunded', '742', 'duplicate', 0]]);
    expect(await hooks.gw.balance(MEMBER)).toBe(EARNED_729);
  });

  it('the reconciliation meeting the final state of both orders changes nothing, on either side: the same wallet', async () => {
    modified = [...current.values()];
    for (const side of [hooks, pulls, pulls]) {
      const run = await reconcile(side);
      expect(run).toMatchObject({ recovered: 0 });
      expect(await side.gw.balance(MEMBER)).toBe(EARNED_729);
    }
  });
});
