import { offsetPage } from '@loyalty-gateway/core';
import { adapterKit, type RecordedVendorServer } from '@loyalty-gateway/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adapter } from './index.js';
import { fixtures, startCloverApi } from './testing/index.js';

const ITEMS = '/v3/merchants/XYZVJT2ZRRRSC/items';
let server: RecordedVendorServer;

/** Page 1 is full (100 items): the 6 recorded items, then copies of the first with their own ids. */
function fullFirstPage(): { elements: Array<Record<string, unknown>> } {
  const recorded = fixtures.json<{ elements: Array<Record<string, unknown>> }>('items-page-1.json').elements;
  const copies = Array.from({ length: 100 - recorded.length }, (_, n) => ({ ...recorded[0], id: `COPY${String(n).padStart(9, '0')}` }));
  return { elements: [...recorded, ...copies] };
}

beforeAll(async () => {
  server = await startCloverApi();
  server.route(`${ITEMS}?offset=0`, { status: 200, body: fullFirstPage() });
  server.route(`${ITEMS}?offset=100`, { status: 200, body: fixtures.json('items-page-2.json') });
  server.script(`${ITEMS}?offset=0`, { status: 429, headers: { 'retry-after': '1' }, body: { message: 'Too Many Requests' } });
  server.script(`${ITEMS}?offset=100`, { status: 502, body: { message: 'Bad Gateway' } });
});
afterAll(() => server.close());

describe('Clover catalog pull', () => {
  it('pages by offset until a short page, retrying a 429 and a 5xx', async () => {
    const kit = adapterKit(adapter, {
      settings: { authCode: 'x', apiBaseUrl: server.baseUrl },
      credentials: { accessToken: 'fake-oauth-access-token' },
    });
    const { items, checkpoints } = await kit.catalog('XYZVJT2ZRRRSC');
    expect(checkpoints).toEqual(['100', null]);
    expect(items).toHaveLength(102);
    expect(items.slice(0, 6)).toEqual([
      { externalId: '9J1F7WW503CZW', name: 'Caesar Salad', price: 12, isActive: true },
      { externalId: 'Z0EPYQ2R5TQ5Y', name: 'My Food Truck', sku: '024463061095', category: 'Food', price: 1.5, isActive: true },
      { externalId: 'KXW0EV58FA88A', name: 'Apple', price: 0.99, isActive: true },
      { externalId: 'STAFFMEAL0001', name: 'Staff Meal', price: 5, isActive: false },
      { externalId: 'GIFTCARD00001', name: 'Gift Card', isActive: true },
      { externalId: 'SEASONPIE0001', name: 'Seasonal Pie', sku: 'PIE-001', price: 19.99, isActive: false },
    ]);
    expect(items[6]).toEqual({ externalId: 'COPY000000000', name: 'Caesar Salad', price: 12, isActive: true });
    expect(items.slice(100)).toEqual([
      { externalId: 'KXW0EV58FA88B', name: 'Peach', price: 1.1, isActive: true },
      { externalId: 'COLDBREW00007', name: 'Cold Brew Shot', sku: 'CB-7', price: 0.07, isActive: true },
    ]);
  });

  it('asked each page with limit, offset, categories and the bearer token (twice each: one retry)', () => {
    const seen = server.seen.filter((r) => r.path === ITEMS);
    expect(seen.map((r) => r.query.get('offset'))).toEqual(['0', '0', '100', '100']);
    for (const r of seen) {
      expect(r.query.get('limit')).toBe('100');
      expect(r.query.get('expand')).toBe('categories');
      expect(r.headers.authorization).toBe('Bearer fake-oauth-access-token');
    }
  });

  it('declares a nightly cron schedule', () => {
    expect(adapter.catalog?.schedule).toBe('20 3 * * *');
  });

  it('reads a checkpoint as the next offset, restarting on anything else', () => {
    const offsetOf = (checkpoint: string | null) => offsetPage(checkpoint, 100).offset;
    expect(offsetOf(null)).toBe(0);
    expect(offsetOf('200')).toBe(200);
    expect(offsetOf('-5')).toBe(0);
    expect(offsetOf('abc')).toBe(0);
  });
});
