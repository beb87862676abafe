import { adapterKit } from '@loyalty-gateway/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adapter } from './index.js';
import { credentials, fixtures, startWooApi } from './testing/index.js';

const WINDOW = { since: new Date('2017-03-21T00:00:00Z'), until: new Date('2017-03-23T00:00:00Z') };
let api: Awaited<ReturnType<typeof startWooApi>>;

beforeAll(async () => {
  api = await startWooApi();
  const [order727, order723] = fixtures.json<unknown[]>('orders-list.json');
  api.route('/wp-json/wc/v3/orders?page=1', { body: [order727], headers: { 'x-wp-totalpages': '2' } });
  api.route('/wp-json/wc/v3/orders?page=2', { body: [order723, { id: 730, status: 'processing' }], headers: { 'x-wp-totalpages': '2' } });
});
afterAll(() => api.close());

describe('woocommerce reconciliation (REST v3 orders modified in the window)', () => {
  it("reconciles the orders modified in the window with the webhook's mapping; an unreadable order is a failure, not a stop", async () => {
    const kit = adapterKit(adapter, { settings: {}, credentials });
    const { envelopes, failures, examined, cursors } = await kit.reconcile(api.site, WINDOW);
    expect(envelopes.map((e) => [e.eventType, e.eventId])).toEqual([
      ['sale.completed', '727:paid'],
      ['sale.refunded', '723:refund:726'],
      ['sale.refunded', '723:refund:724'],
    ]);
    expect(failures).toEqual([{ id: '730', reason: 'unreadable order: currency Invalid input: expected string, received undefined' }]);
    expect(examined).toBe(3);
    expect(cursors).toEqual(['2', null]);
    const listing = api.seen.find((r) => r.path === '/wp-json/wc/v3/orders')!;
    expect(Object.fromEntries(listing.query)).toMatchObject({
      modified_after: '2017-03-21T00:00:00.000Z',
      modified_before: '2017-03-23T00:00:00.000Z',
      dates_are_gmt: 'true',
      per_page: '100',
      page: '1',
    });
  });
});
