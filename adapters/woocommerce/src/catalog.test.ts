import { adapterKit } from '@loyalty-gateway/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adapter } from './index.js';
import { BASIC, credentials, fixtures, startWooApi } from './testing/index.js';

let api: Awaited<ReturnType<typeof startWooApi>>;

beforeAll(async () => {
  api = await startWooApi();
  const products = fixtures.json<unknown[]>('products-list.json');
  api.route('/wp-json/wc/v3/products?page=1', { body: [products[0]], headers: { 'x-wp-totalpages': '2', 'x-wp-total': '2' } });
  api.route('/wp-json/wc/v3/products?page=2', { body: [products[1]], headers: { 'x-wp-totalpages': '2', 'x-wp-total': '2' } });
  api.script('/wp-json/wc/v3/products?page=2', { status: 503, body: { code: 'unavailable' } });
});
afterAll(() => api.close());

describe('woocommerce catalog pull (REST v3, Basic auth, X-WP-TotalPages)', () => {
  it('pages the catalog by page number until X-WP-TotalPages, through a 503', async () => {
    const kit = adapterKit(adapter, { settings: {}, credentials });
    const { items, checkpoints } = await kit.catalog(api.site);
    expect(items.map((i) => [i.externalId, i.price ?? null, i.isActive])).toEqual([
      ['799', null, false],
      ['794', 21.99, true],
    ]);
    expect(checkpoints).toEqual(['2', null]);
    const calls = api.seen.filter((r) => r.path === '/wp-json/wc/v3/products');
    expect(calls).toHaveLength(3);
    for (const call of calls) {
      expect(call.headers.authorization).toBe(BASIC);
      expect(call.query.get('per_page')).toBe('100');
    }
  });

  it('without REST API keys a pull fails naming what to add (no request is made)', async () => {
    const before = api.seen.length;
    const kit = adapterKit(adapter, { settings: {} });
    await expect(kit.catalog(api.site)).rejects.toThrow(/no consumerKey\/consumerSecret on the WooCommerce connection/);
    expect(api.seen.length).toBe(before);
  });
});
