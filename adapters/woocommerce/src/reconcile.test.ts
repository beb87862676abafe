import { adapterKit } from '@loyalty-gateway/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adapter } from './index.js';
import { credentials, fixtures, startWooApi } from './testing/index.js';

const WINDOW = { since: new Date('2017-03-21T00:00:00Z'), until: new Date('2017-03-23T00:00:00Z') };
const ORDERS = '/wp-json/wc/v3/orders';
let api: Awaited<ReturnType<typeof startWooApi>>;
const [order727, order723] = fixtures.json<Array<Record<string, unknown>>>('orders-list.json');
// Order 729 as documented (batch example: processing, paid 54.40), then fully refunded and that refund
// deleted: status refunded (it never changes back, issue #68658), refunds[] empty, date_modified not
// moved. Assembled in test code from the documented order; no WooCommerce document shows that state.
const order729 = (fixtures.json('orders-batch.json') as { create: Array<Record<string, unknown>> }).create[1]!;
const refundDeleted729 = { ...order729, status: 'refunded', refunds: [] };

beforeAll(async () => {
  api = await startWooApi();
  api.route(`${ORDERS}?page=1`, { body: [order727], headers: { 'x-wp-totalpages': '2' } });
  api.route(`${ORDERS}?page=2`, { body: [order723, { id: 730, status: 'processing' }], headers: { 'x-wp-totalpages': '2' } });
});
afterAll(() => api.close());

const kit = adapterKit(adapter, { settings: {}, credentials });
const included = () => api.seen.filter((r) => r.path === ORDERS && r.query.has('include')).map((r) => Object.fromEntries(r.query));

describe('woocommerce reconciliation (REST v3 orders modified in the window)', () => {
  it("reconciles the orders modified in the window with the webhook's mapping; an unreadable order is a failure, not a stop", async () => {
    const { envelopes, failures, examined, cursors } = await kit.reconcile(api.site, WINDOW);
    expect(envelopes.map((e) => [e.eventType, e.eventId])).toEqual([
      ['refunds.listed', '727:refunds:2017-03-22T19:28:08.000Z'],
      ['sale.completed', '727:paid'],
      ['sale.refunded', '723:refund:726'],
      ['sale.refunded', '723:refund:724'],
    ]);
    expect(failures).toEqual([{ id: '730', reason: 'unreadable order: currency Invalid input: expected string, received undefined' }]);
    expect(examined).toBe(3);
    expect(cursors).toEqual(['2', null]);
    const listing = api.seen.find((r) => r.path === ORDERS)!;
    expect(Object.fromEntries(listing.query)).toMatchObject({
      modified_after: '2017-03-21T00:00:00.000Z',
      modified_before: '2017-03-23T00:00:00.000Z',
      dates_are_gmt: 'true',
      per_page: '100',
      page: '1',
    });
    expect(included()).toEqual([]); // nothing to revisit: no extra read
  });

  it('on its first page it also reads back the orders of window.revisit (include=, whatever their modification time), mapped like listed ones: a refund deleted without touching the order is given back', async () => {
    // The gateway passes the orders with a reversal recorded in the last 30 days (at most 100 a run).
    expect(adapter.reconcile?.revisitDays).toBe(30);
    api.seen.length = 0;
    api.route(`${ORDERS}?page=1&include=729`, { body: [refundDeleted729] });
    // 727 is on the listed page already (read once); ids that cannot be WooCommerce orders are not asked for.
    const { envelopes, failures, examined } = await kit.reconcile(api.site, { ...WINDOW, revisit: ['727', '729', '729', 'O:12', '0'] });
    expect(envelopes.filter((e) => e.transaction.id === '729')).toEqual([
      {
        eventId: '729:refunds:2017-03-22T19:33:47.000Z',
        eventType: 'refunds.listed',
        occurredAt: '2017-03-22T19:33:47.000Z',
        store: { id: api.site },
        transaction: { id: '729' },
        refundIds: [],
      },
    ]);
    expect(envelopes.filter((e) => e.transaction.id === '727').map((e) => e.eventType)).toEqual(['refunds.listed', 'sale.completed']);
    expect(failures).toEqual([{ id: '730', reason: 'unreadable order: currency Invalid input: expected string, received undefined' }]);
    expect(examined).toBe(4);
    expect(included()).toEqual([{ include: '729', orderby: 'id', order: 'asc', per_page: '100', page: '1' }]);
    expect(api.seen.find((r) => r.query.has('include'))!.headers.authorization).toMatch(/^Basic /);
  });

  it('reads the orders to revisit 100 ids per call', async () => {
    api.seen.length = 0;
    const ids = Array.from({ length: 150 }, (_, i) => String(1000 + i));
    api.route(`${ORDERS}?page=1&include=${ids.slice(0, 100).join(',')}`, { body: [] });
    api.route(`${ORDERS}?page=1&include=${ids.slice(100).join(',')}`, { body: [{ ...refundDeleted729, id: 1149 }] });
    const { envelopes } = await kit.reconcile(api.site, { ...WINDOW, revisit: ids });
    expect(included().map((q) => q.include!.split(',').length)).toEqual([100, 50]);
    expect(envelopes.filter((e) => e.transaction.id === '1149').map((e) => e.eventType)).toEqual(['refunds.listed']);
  });
});
