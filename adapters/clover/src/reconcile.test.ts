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
    // Only the paid order becomes an envelope: the open one maps to nothing, deleted ones are skipped.
    expect(first.envelopes).toEqual([
      expect.objectContaining({ eventType: 'sale.completed', transaction: expect.objectContaining({ id: paid.id }) }),
    ]);
    const listing = server.seen.find((r) => r.path === `${XYZ}/orders`)!;
    expect(listing.query.getAll('filter')).toEqual([`modifiedTime>=${window.since.getTime()}`, `modifiedTime<${window.until.getTime()}`]);
    expect(listing.query.get('limit')).toBe(String(RECONCILE_PAGE_SIZE));

    const second = await adapter.reconcile!.pull(kit().context('XYZVJT2ZRRRSC') as CloverContext, window, first.cursor);
    expect(second).toEqual({ envelopes: [], failures: [], examined: 0, cursor: null });
  });

  it('runs every 15 minutes', () => {
    expect(adapter.reconcile!.schedule).toBe('*/15 * * * *');
  });
});
