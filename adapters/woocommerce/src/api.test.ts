import { adapterKit, startRecordedVendorServer, type RecordedVendorServer } from '@loyalty-gateway/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adapter } from './index.js';
import { fixtures } from './testing/index.js';

const credentials = { consumerKey: 'ck_0123456789abcdef', consumerSecret: 'cs_0123456789abcdef' };
const BASIC = `Basic ${Buffer.from('ck_0123456789abcdef:cs_0123456789abcdef').toString('base64')}`;
const WINDOW = { since: new Date('2017-03-21T00:00:00Z'), until: new Date('2017-03-23T00:00:00Z') };
let api: RecordedVendorServer;
let site: string;

beforeAll(async () => {
  // A real HTTP server answering with the documented pages, keyed by path and page number.
  api = await startRecordedVendorServer({ key: ({ url }) => `${url.pathname}?page=${url.searchParams.get('page')}` });
  site = `${api.baseUrl}/`;
  const [order727, order723] = fixtures.json('orders-list.json') as unknown[];
  const products = fixtures.json('products-list.json') as unknown[];
  api.route('/wp-json/wc/v3/products?page=1', { body: [products[0]], headers: { 'x-wp-totalpages': '2', 'x-wp-total': '2' } });
  api.route('/wp-json/wc/v3/products?page=2', { body: [products[1]], headers: { 'x-wp-totalpages': '2', 'x-wp-total': '2' } });
  api.script('/wp-json/wc/v3/products?page=2', { status: 503, body: { code: 'unavailable' } });
  api.route('/wp-json/wc/v3/orders?page=1', { body: [order727], headers: { 'x-wp-totalpages': '2' } });
  api.route('/wp-json/wc/v3/orders?page=2', { body: [order723, { id: 730, status: 'processing' }], headers: { 'x-wp-totalpages': '2' } });
});
afterAll(() => api.close());

describe('woocommerce pulls (REST v3, Basic auth, X-WP-TotalPages)', () => {
  it('pages the catalog by page number until X-WP-TotalPages, through a 503', async () => {
    const kit = adapterKit(adapter, { settings: {}, credentials });
    const { items, checkpoints } = await kit.catalog(site);
    expect(items.map((i) => [i.externalId, i.price ?? null, i.isActive])).toEqual([['799', null, false], ['794', 21.99, true]]);
    expect(checkpoints).toEqual(['2', null]);
    const calls = api.seen.filter((r) => r.path === '/wp-json/wc/v3/products');
    expect(calls).toHaveLength(3);
    for (const call of calls) {
      expect(call.headers.authorization).toBe(BASIC);
      expect(call.query.get('per_page')).toBe('100');
    }
  });

  it('reconciles the orders modified in the window with the webhook\'s mapping; an unreadable order is a failure, not a stop', async () => {
    const kit = adapterKit(adapter, { settings: {}, credentials });
    const { envelopes, failures, examined, cursors } = await kit.reconcile(site, WINDOW);
    expect(envelopes.map((e) => [e.eventType, e.eventId])).toEqual([['sale.completed', '727:paid'], ['sale.refunded', '723:refund:726'], ['sale.refunded', '723:refund:724']]);
    expect(failures).toEqual([{ id: '730', reason: 'unreadable order: currency Invalid input: expected string, received undefined' }]);
    expect(examined).toBe(3);
    expect(cursors).toEqual(['2', null]);
    const listing = api.seen.find((r) => r.path === '/wp-json/wc/v3/orders')!;
    expect(Object.fromEntries(listing.query)).toMatchObject({
      modified_after: '2017-03-21T00:00:00.000Z', modified_before: '2017-03-23T00:00:00.000Z', dates_are_gmt: 'true', per_page: '100', page: '1',
    });
  });

  it('without REST API keys a pull fails naming what to add (no request is made)', async () => {
    const before = api.seen.length;
    const kit = adapterKit(adapter, { settings: {} });
    await expect(kit.catalog(site)).rejects.toThrow(/no consumerKey\/consumerSecret on the WooCommerce connection/);
    expect(api.seen.length).toBe(before);
  });
});
