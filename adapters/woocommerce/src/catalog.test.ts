import { readFileSync } from 'node:fs';
import { adapterKit, startRecordedVendorServer, type RecordedVendorServer } from '@loyalty-gateway/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adapter } from './index.js';

const page = (name: string): unknown => JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8'));
let api: RecordedVendorServer;

beforeAll(async () => {
  // A real HTTP server answering with recorded pages, keyed by cursor; never a mock of the client.
  api = await startRecordedVendorServer({ key: ({ url }) => `${url.pathname}?cursor=${url.searchParams.get('cursor') ?? ''}` });
  api.route('/products?cursor=', { body: page('products-page-1.json') });
  api.route('/products?cursor=cursor-page-2', { body: page('products-page-2.json') });
  api.script('/products?cursor=', { status: 429, headers: { 'retry-after': '1' }, body: { error: 'rate limited' } });
  api.script('/products?cursor=cursor-page-2', { status: 503, body: { error: 'unavailable' } });
});
afterAll(() => api.close());

describe('woocommerce catalog pull', () => {
  it('pages by cursor through a 429 (Retry-After) and a 503, to every product', async () => {
    const kit = adapterKit(adapter, { settings: { webhookSecret: 's', apiBaseUrl: api.baseUrl }, credentials: { accessToken: 'token-1' } });
    const { items, checkpoints } = await kit.catalog('store-001');
    expect(items).toEqual([
      { externalId: 'p1', name: 'Latte', sku: 'COF-LATTE', category: 'Coffee', price: 4.5, isActive: true },
      { externalId: 'p2', name: 'Muffin', sku: 'BAK-MUFFIN', category: 'Bakery', price: 3.5, isActive: true },
      { externalId: 'p3', name: 'Seasonal cake', isActive: false },
    ]);
    expect(checkpoints).toEqual(['cursor-page-2', null]);
    expect(api.seen).toHaveLength(4);
    for (const request of api.seen) {
      expect(request.headers.authorization).toBe('Bearer token-1');
      expect(request.query.get('store_id')).toBe('store-001');
    }
  });

  it('declares a nightly schedule', () => {
    expect(adapter.catalog?.schedule).toBe('40 3 * * *');
  });
});
