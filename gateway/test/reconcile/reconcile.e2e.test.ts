import { startRecordedVendorServer, type RecordedVendorServer } from '@loyalty-gateway/core/testing';
import { adapter as clover } from '@loyalty-gateway/adapter-clover';
import { adapter as square } from '@loyalty-gateway/adapter-square';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openFeaturedGateway, type FeaturedGateway } from '../../src/testing/featured-gateway.js';
import {
  CLOVER_AUTH_CODE,
  CLOVER_MERCHANT,
  MEMBERS,
  SQUARE_LOCATION,
  SQUARE_NOTIFICATION_URL,
  SQUARE_SIGNATURE_KEY,
  featuredSeedDocument,
} from '../../src/testing/featured-seed.js';
import { adapterFixture, adapterFixtureJson, vendorSignature } from '../../src/testing/native-fixtures.js';
import type { ConnectionSummary } from '../../src/stores/index.js';
import type { ReconcileRunStore } from '../../src/reconcile/reconcile-run-store.js';
import { reconcileDepsFor } from '../../src/testing/reconcile-deps.js';
import { RECONCILE_OVERLAP_MS, runReconcile, type ReconcileDeps } from '../../src/reconcile/run-reconcile.js';

const dialects = process.env.DATABASE_URL ? (['sqlite', 'postgres'] as const) : (['sqlite'] as const);
const XYZ = `/v3/merchants/${CLOVER_MERCHANT}`;
const member = MEMBERS.clover.membershipId;
// Clover's documented order object (order-paid.json, unedited); the listing page is assembled from
// it as `GET /v3/merchants/{mId}/orders` returns orders: `{ elements: [order…] }`.
const paidOrder = adapterFixtureJson('clover', 'order-paid.json') as Record<string, unknown> & { id: string; modifiedTime: number };

describe.each(dialects)('order reconciliation recovers what the webhook never delivered (Clover, %s)', (dialect) => {
  let api: RecordedVendorServer;
  let gw: FeaturedGateway;
  let runs: ReconcileRunStore;
  let connection: ConnectionSummary;
  let deps: ReconcileDeps;
  let clock = 0;

  beforeAll(async () => {
    api = await startRecordedVendorServer();
    api.route(`${XYZ}/orders`, { body: { elements: [paidOrder] } });
    api.route(`${XYZ}/orders/${paidOrder.id}`, { body: paidOrder });
    api.route(`${XYZ}/customers/CUSTVJT2ABCRS`, { body: adapterFixtureJson('clover', 'customer.json') });
    gw = await openFeaturedGateway({ seedDocument: featuredSeedDocument({ cloverApi: api.baseUrl }), dialect });

    const found = await gw.store.listConnections({ vendor: 'clover' });
    connection = found[0]!;
    clock = connection.createdAt.getTime() + 60 * 60 * 1000;
    deps = await reconcileDepsFor(gw, () => clock);
    runs = deps.runs;
  });
  afterAll(async () => {
    await gw?.close();
    await api?.close();
  });

  it('a sale the webhook never delivered is earned by the run, once; the webhook arriving late is a duplicate', async () => {
    expect(await gw.balance(member)).toBe(0);
    const run = await runReconcile(clover, connection, deps, { kind: 'schedule', slot: 'tick-1' });
    expect(run).toMatchObject({ status: 'succeeded', pages: 1, found: 1, recovered: 1, duplicates: 0, failed: 0, error: null });
    expect(run!.since).toEqual(connection.createdAt); // the first window starts when the connection was made
    const earned = await gw.balance(member);
    expect(earned).toBeGreaterThan(0);

    // The listing asked for the window, by modification time, with the token Clover issued.
    const listing = api.seen.find((r) => r.path === `${XYZ}/orders`)!;
    expect(listing.query.getAll('filter')).toEqual([`modifiedTime>=${connection.createdAt.getTime()}`, `modifiedTime<${clock}`]);
    expect(listing.headers.authorization).toBe('Bearer fake-oauth-access-token');

    const late = await gw.app.inject({
      method: 'POST',
      url: '/webhooks/clover',
      headers: { 'content-type': 'application/json', 'x-clover-auth': CLOVER_AUTH_CODE },
      payload: {
        appId: 'DRKVJT2ZRRRSC',
        merchants: { [CLOVER_MERCHANT]: [{ objectId: `O:${paidOrder.id}`, type: 'UPDATE', ts: paidOrder.modifiedTime }] },
      },
    });
    expect(late.statusCode).toBe(200);
    expect(late.json().results).toEqual([expect.objectContaining({ transactionId: paidOrder.id, status: 'duplicate' })]);
    expect(await gw.balance(member)).toBe(earned);
  });

  it('the next run starts at the checkpoint less the overlap and finds only duplicates', async () => {
    const before = await gw.balance(member);
    const previousUntil = clock;
    clock += 15 * 60 * 1000;
    const run = await runReconcile(clover, connection, deps, { kind: 'schedule', slot: 'tick-2' });
    expect(run).toMatchObject({ status: 'succeeded', found: 1, recovered: 0, duplicates: 1, failed: 0 });
    expect(run!.since.getTime()).toBe(previousUntil - RECONCILE_OVERLAP_MS);
    expect(await gw.balance(member)).toBe(before);
  });

  it('a slot already claimed (another gateway took this tick) is not run again', async () => {
    expect(await runReconcile(clover, connection, deps, { kind: 'schedule', slot: 'tick-2' })).toBeNull();
  });

  it('a failing listing fails the run, names the reason, and leaves the checkpoint where it was', async () => {
    const checkpoint = await runs.checkpoint(connection.id);
    clock += 15 * 60 * 1000;
    api.script(`${XYZ}/orders`, { status: 503, body: { message: 'Service Unavailable' } });
    const run = await runReconcile(clover, connection, deps, { kind: 'manual' });
    expect(run).toMatchObject({ status: 'failed', trigger: 'manual', recovered: 0 });
    expect(run!.error).toMatch(/503/);
    expect(await runs.checkpoint(connection.id)).toEqual(checkpoint);

    // The next run covers the failed window again (from the old checkpoint), and succeeds.
    clock += 15 * 60 * 1000;
    const retry = await runReconcile(clover, connection, deps, { kind: 'manual' });
    expect(retry).toMatchObject({ status: 'succeeded', duplicates: 1 });
    expect(retry!.since.getTime()).toBe(checkpoint!.getTime() - RECONCILE_OVERLAP_MS);
    const listed = await runs.list({ connectionId: connection.id });
    expect(listed.map((r) => r.status)).toEqual(['succeeded', 'failed', 'succeeded', 'succeeded']);
  });

  it('a run left running by a process that died is marked failed (abandoned) when the next run claims, after an hour', async () => {
    const dead = await runs.claim({
      vendor: 'clover',
      connectionId: connection.id,
      trigger: 'manual',
      since: new Date(clock),
      until: new Date(clock),
    });
    expect(dead).toMatchObject({ status: 'running' });
    clock += 30 * 60 * 1000;
    await runReconcile(clover, connection, deps, { kind: 'manual' });
    expect((await runs.list({ connectionId: connection.id })).find((r) => r.id === dead!.id)).toMatchObject({ status: 'running' }); // not yet an hour
    clock += 31 * 60 * 1000;
    await runReconcile(clover, connection, deps, { kind: 'manual' });
    expect((await runs.list({ connectionId: connection.id })).find((r) => r.id === dead!.id)).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/^abandoned/),
    });
  });

  it('an order id that is not a Clover id is counted as failed and never fetched', async () => {
    clock += 15 * 60 * 1000;
    api.route(`${XYZ}/orders`, { body: { elements: [paidOrder, { id: '../../etc', modifiedTime: paidOrder.modifiedTime }] } });
    const run = await runReconcile(clover, connection, deps, { kind: 'manual' });
    expect(run).toMatchObject({ status: 'failed', found: 2, duplicates: 1, failed: 1 });
    expect(api.seen.some((r) => r.path.includes('etc'))).toBe(false);
    api.route(`${XYZ}/orders`, { body: { elements: [paidOrder] } });
  });
});

describe.each(dialects)('order reconciliation recovers a missed Square sale and its missed refund (%s)', (dialect) => {
  const ORDER_ID = '03O3USaPaAaFnI6kkwB1JxGgBsUZY';
  // Square's documented payment.updated (unedited fixture): its payment object is what
  // ListPayments answers for it; the refund is Square's documented refund.updated object, moved to
  // this payment and location (as in square.e2e.test.ts), answered by GET /v2/refunds/{id}.
  const event = adapterFixtureJson('square', 'payment-updated-completed.json') as { data: { object: { payment: { id: string } } } };
  const refund = (
    adapterFixtureJson('square', 'refund-updated-completed.json') as {
      data: { object: { refund: Record<string, unknown> & { id: string } } };
    }
  ).data.object.refund;
  const payment = { ...event.data.object.payment, refund_ids: [refund.id] };
  const squareMember = MEMBERS.square.membershipId;
  let api: RecordedVendorServer;
  let gw: FeaturedGateway;
  let deps: ReconcileDeps;
  let connection: ConnectionSummary;

  beforeAll(async () => {
    api = await startRecordedVendorServer();
    api.route('/v2/payments', { body: { payments: [payment] } });
    api.route(`/v2/payments/${payment.id}`, { body: { payment } });
    api.route(`/v2/refunds/${refund.id}`, { body: { refund: { ...refund, location_id: SQUARE_LOCATION, payment_id: payment.id } } });
    api.route(`/v2/orders/${ORDER_ID}`, { body: adapterFixtureJson('square', 'order-retrieve.json') });
    api.route('/v2/customers/JDKYHBWT1D4F8MFH63DBMEN8Y4', { body: adapterFixtureJson('square', 'customer-retrieve.json') });
    gw = await openFeaturedGateway({ seedDocument: featuredSeedDocument({ squareApi: api.baseUrl }), dialect });
    connection = (await gw.store.listConnections({ vendor: 'square' }))[0]!;
    deps = await reconcileDepsFor(gw, () => connection.createdAt.getTime() + 60_000);
  });
  afterAll(async () => {
    await gw?.close();
    await api?.close();
  });

  it('the run earns the sale and reverses the refund (10.00 of 5.50 → all of it), once; a second run changes nothing', async () => {
    const run = await runReconcile(square, connection, deps, { kind: 'manual' });
    expect(run).toMatchObject({ status: 'succeeded', found: 1, recovered: 2, duplicates: 0, failed: 0 });
    const listing = api.seen.find((r) => r.path === '/v2/payments')!;
    expect(Object.fromEntries(listing.query)).toMatchObject({
      location_id: SQUARE_LOCATION,
      sort_field: 'UPDATED_AT',
      updated_at_begin_time: connection.createdAt.toISOString(),
    });
    expect(await gw.balance(squareMember)).toBe(0); // earned, then the refund (more than the sale) took it all back
    const earns = await runReconcile(square, connection, deps, { kind: 'manual' });
    expect(earns).toMatchObject({ status: 'succeeded', recovered: 0, duplicates: 2 });
  });

  it('the webhook arriving late is a duplicate', async () => {
    const body = adapterFixture('square', 'payment-updated-completed.json');
    const late = await gw.app.inject({
      method: 'POST',
      url: '/webhooks/square',
      payload: body,
      headers: {
        'content-type': 'application/json',
        ...vendorSignature(square.defaultAuth, SQUARE_SIGNATURE_KEY, SQUARE_NOTIFICATION_URL, body),
      },
    });
    expect(late.json().results).toEqual([expect.objectContaining({ transactionId: ORDER_ID, status: 'duplicate' })]);
  });
});
