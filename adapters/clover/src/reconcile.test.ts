import { adapterKit, type RecordedVendorServer } from '@loyalty-gateway/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adapter } from './index.js';
import type { CloverContext } from './config.js';
import { RECONCILE_PAGE_SIZE } from './reconcile.js';
import { fixtures, startCloverApi } from './testing/index.js';

const XYZ = '/v3/merchants/XYZVJT2ZRRRSC';
// Clover's documented order objects (fixtures, unedited); the listing pages are assembled from them
// the way `GET /v3/merchants/{mId}/orders` answers: `{ elements: [order…] }`.
const paid = fixtures.json<{ id: string; modifiedTime: number }>('order-paid.json');
const open = fixtures.json<{ id: string; modifiedTime: number }>('order-open.json');
const window = { since: new Date(1_537_900_000_000), until: new Date(1_538_000_000_000) };
let server: RecordedVendorServer;

beforeAll(async () => {
  server = await startCloverApi();
  // Page 1 is full: the paid order, the open one, then orders deleted since they were listed (404).
  const gone = Array.from({ length: RECONCILE_PAGE_SIZE - 2 }, (_, n) => ({
    id: `GONE${String(n).padStart(9, '0')}`,
    modifiedTime: paid.modifiedTime,
  }));
  server.route(`${XYZ}/orders?offset=0`, { body: { elements: [paid, open, ...gone] } });
  server.route(`${XYZ}/orders?offset=${RECONCILE_PAGE_SIZE}`, { body: { elements: [] } });
  server.route(`${XYZ}/orders/${paid.id}`, { body: paid });
  server.route(`${XYZ}/orders/${open.id}`, { body: open });
  server.route(`${XYZ}/customers/CUSTVJT2ABCRS`, { body: fixtures.json('customer.json') });
});
afterAll(() => server.close());

describe('Clover reconciliation pull', () => {
  const kit = () =>
    adapterKit(adapter, {
      settings: { authCode: 'x', apiBaseUrl: server.baseUrl },
      credentials: { accessToken: 'fake-oauth-access-token' },
    });

  it('lists the window by modification time, maps each order as its webhook would, and pages by offset until a short page', async () => {
    const first = await adapter.reconcile!.pull(kit().context('XYZVJT2ZRRRSC') as CloverContext, window, null);
    expect(first.examined).toBe(RECONCILE_PAGE_SIZE);
    expect(first.cursor).toBe(String(RECONCILE_PAGE_SIZE));
    expect(first.failures).toEqual([]);
    // Each fetched order states its reversals (none); only the paid one earns; deleted ones are skipped.
    expect(first.envelopes.map((e) => [e.eventType, e.transaction.id])).toEqual([
      ['refunds.listed', paid.id],
      ['sale.completed', paid.id],
      ['refunds.listed', open.id],
    ]);
    const listing = server.seen.find((r) => r.path === `${XYZ}/orders`)!;
    expect(listing.query.getAll('filter')).toEqual([`modifiedTime>=${window.since.getTime()}`, `modifiedTime<${window.until.getTime()}`]);
    expect(listing.query.get('limit')).toBe(String(RECONCILE_PAGE_SIZE));

    const second = await adapter.reconcile!.pull(kit().context('XYZVJT2ZRRRSC') as CloverContext, window, first.cursor);
    expect(second).toEqual({ envelopes: [], failures: [], examined: 0, cursor: null });
  });

  it('runs every 15 minutes, reading back the orders with a reversal recorded in the last 2 days', () => {
    expect(adapter.reconcile!.schedule).toBe('*/15 * * * *');
    expect(adapter.reconcile!.revisitDays).toBe(2);
  });

  it("reads back window.revisit's orders on the first page only, those the page does not list, whatever their modification time", async () => {
    // A refund voided without its order marked modified (undocumented either way): the order is read again.
    const refunded = fixtures.json<{ id: string }>('order-refunded.json');
    server.route(`${XYZ}/orders/${refunded.id}`, { body: { ...refunded, refunds: { elements: [] } } });
    const revisit = { ...window, revisit: [refunded.id, paid.id, '../x'] };
    const ctx = kit().context('XYZVJT2ZRRRSC') as CloverContext;
    const first = await adapter.reconcile!.pull(ctx, revisit, null);
    expect(first.examined).toBe(RECONCILE_PAGE_SIZE + 2);
    expect(first.failures).toEqual([{ id: '../x', reason: 'not a Clover id: never fetched' }]);
    const readBack = first.envelopes.filter((e) => e.transaction.id === refunded.id);
    expect(readBack).toEqual([
      expect.objectContaining({ eventType: 'refunds.listed', refundIds: [], occurredAt: '2018-09-05T14:09:18.000Z' }),
    ]);
    expect(first.envelopes.filter((e) => e.transaction.id === paid.id)).toHaveLength(2); // listed once, not read twice
    const second = await adapter.reconcile!.pull(ctx, revisit, first.cursor);
    expect(second.envelopes).toEqual([]);
  });

  it("Clover's documented listing (docs.clover.com, Apply filters: two locked SPLIT_CUSTOM orders without paymentState): each read back, nothing earned", async () => {
    const listing = fixtures.json<{ elements: Array<{ id: string }> }>('orders-listing-split.json');
    const ABC = '/v3/merchants/ABCDE2ZRRRSC1';
    server.route(`${ABC}/orders?offset=0`, { body: listing });
    for (const order of listing.elements) server.route(`${ABC}/orders/${order.id}`, { body: order });
    const page = await adapter.reconcile!.pull(kit().context('ABCDE2ZRRRSC1') as CloverContext, window, null);
    expect(page).toMatchObject({ examined: 2, failures: [], cursor: null });
    expect(page.envelopes.map((e) => [e.eventType, e.transaction.id, e.occurredAt])).toEqual([
      ['refunds.listed', '8WAD6KV8D90KR', '2014-05-28T14:14:23.000Z'],
      ['refunds.listed', '0S0JJYG231462', '2014-05-14T22:26:06.000Z'],
    ]);
  });
});
