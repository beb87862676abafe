import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { toCatalogItem, toEnvelopes } from './map.js';
import { WoocommerceEvent } from './native.js';

const paid = WoocommerceEvent.parse(JSON.parse(readFileSync(new URL('./fixtures/order-paid.json', import.meta.url), 'utf8')));

describe('woocommerce map (pure: native → canonical)', () => {
  it('maps order.paid to one sale.completed, leaving out lines priced 0', () => {
    const { envelopes } = toEnvelopes(paid);
    expect(envelopes).toHaveLength(1);
    expect(envelopes[0]).toMatchObject({ eventId: 'evt_0001', eventType: 'sale.completed', transaction: { id: '1001', total: 12.5 } });
    expect(envelopes[0]?.transaction.items?.map((i) => i.name)).toEqual(['Latte', 'Muffin']);
  });

  it('maps order.refunded to sale.refunded naming the original order and the refund', () => {
    const refunded = { ...paid, event_id: 'evt_0002', event_type: 'order.refunded', refund: { id: 'r-1', amount: '4.50' } };
    expect(toEnvelopes(refunded).envelopes).toEqual([{
      eventId: 'evt_0002', eventType: 'sale.refunded', occurredAt: paid.created_at, store: { id: 'store-001' },
      transaction: { id: '1001', currency: 'USD' }, refund: { id: 'r-1', amount: 4.5 },
    }]);
  });

  it('answers other events and zero totals with no envelope and a note (200, the vendor stops retrying)', () => {
    expect(toEnvelopes({ ...paid, event_type: 'order.created' })).toEqual({ envelopes: [], note: 'event order.created is not a finalised sale' });
    expect(toEnvelopes({ ...paid, order: { ...paid.order, total: '0.00' } }).envelopes).toEqual([]);
  });

  it('maps a product to a catalog item (price left out when absent)', () => {
    expect(toCatalogItem({ id: 'p3', name: 'Cake', active: false })).toEqual({ externalId: 'p3', name: 'Cake', isActive: false });
  });
});
