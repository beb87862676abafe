import { describe, expect, it } from 'vitest';
import { customerOf } from './map-customer.js';
import { toDiscountCodes, toItem } from './map-items.js';
import { toCatalogItem, toEnvelopes } from './map.js';
import { ShopifyOrder, ShopifyVariantNode } from './native.js';
import { staleBy, type ShopifyUnit } from './auth.js';

const NOW = new Date('2025-08-01T12:00:00Z');
const unit = (topic: string, body: unknown): ShopifyUnit => ({ topic, eventId: 'evt-1', webhookId: null, triggeredAt: null, body });
const order = (overrides: Record<string, unknown>) => ({
  id: 1001,
  email: 'walk.in@example.com',
  currency: 'EUR',
  total_price: '19.99',
  financial_status: 'paid',
  processed_at: '2025-07-31T10:00:00+02:00',
  line_items: [{ name: 'Flat white', price: '19.99', quantity: 1 }],
  ...overrides,
});

describe('toEnvelopes (pure)', () => {
  it('maps a minimal paid order, defaulting the channel to web and omitting empty discount codes', () => {
    expect(toEnvelopes(unit('orders/paid', order({})), 'shop.myshopify.com', NOW)).toEqual({
      envelopes: [
        {
          eventId: 'orders/paid:evt-1',
          eventType: 'sale.completed',
          occurredAt: '2025-07-31T08:00:00.000Z',
          store: { id: 'shop.myshopify.com' },
          transaction: {
            id: '1001',
            total: 19.99,
            currency: 'EUR',
            channel: 'web',
            customer: { type: 'email', value: 'walk.in@example.com' },
            items: [{ name: 'Flat white', quantity: 1, unitPrice: 19.99 }],
          },
        },
      ],
    });
  });

  it.each([['0.00'], ['0'], ['-1.00']])('a paid total of %s earns nothing (zero envelopes, a note)', (total) => {
    const result = toEnvelopes(unit('orders/paid', order({ total_price: total })), 's', NOW);
    expect(result.envelopes).toEqual([]);
    expect(result.note).toMatch(/paid total is not > 0/);
  });

  it('a test-mode order (test: true) and a sub-cent total are notes, not errors', () => {
    expect(toEnvelopes(unit('orders/paid', order({ test: true })), 's', NOW)).toEqual({
      envelopes: [],
      note: 'Shopify test order 1001 (test: true): accepted, nothing to do',
    });
    expect(toEnvelopes(unit('orders/paid', order({ total_price: '1.005' })), 's', NOW).note).toMatch(/not an amount in cents/);
  });

  it('a time whose year has no four digits is not used (the schema refuses "+010000-…"): the next one, else now', () => {
    const [far] = toEnvelopes(
      unit('orders/paid', order({ processed_at: '+010000-01-01T00:00:00Z', created_at: null })),
      's',
      NOW,
    ).envelopes;
    expect(far!.occurredAt).toBe(NOW.toISOString());
    const [next] = toEnvelopes(
      unit('orders/paid', order({ processed_at: '+010000-01-01T00:00:00Z', created_at: '2025-07-31T08:00:00Z' })),
      's',
      NOW,
    ).envelopes;
    expect(next!.occurredAt).toBe('2025-07-31T08:00:00.000Z');
  });

  it('an unreadable payload or a missing topic is a note', () => {
    expect(toEnvelopes(unit('orders/paid', { no: 'id' }), 's', NOW).note).toMatch(/unreadable orders\/paid payload \(id\)/);
    expect(toEnvelopes(unit('', order({})), 's', NOW)).toEqual({ envelopes: [], note: 'no X-Shopify-Topic header: nothing to do' });
  });

  it('a refund that moved no money reverses nothing', () => {
    const refund = { id: 7, order_id: 1001, transactions: [{ kind: 'refund', status: 'failure', amount: '3.00', currency: 'EUR' }] };
    expect(toEnvelopes(unit('refunds/create', refund), 's', NOW).note).toMatch(/moved no money/);
  });

  it('a refund whose amount cannot be computed omits refund.amount', () => {
    const refund = {
      id: 7,
      order_id: 1001,
      created_at: '2025-08-01T09:00:00Z',
      transactions: [{ kind: 'refund', status: 'success', amount: '1.234', currency: 'KWD' }],
    };
    expect(toEnvelopes(unit('refunds/create', refund), 's', NOW).envelopes).toEqual([
      {
        eventId: 'refunds/create:evt-1:7',
        eventType: 'sale.refunded',
        occurredAt: '2025-08-01T09:00:00.000Z',
        store: { id: 's' },
        transaction: { id: '1001', currency: 'KWD' },
        refund: { id: '7' },
      },
    ]);
  });
});

describe('lines, customer, discount codes', () => {
  it('leaves free lines out and turns quantity strings into integers', () => {
    expect(toItem({ name: 'Gift wrap', price: '0.00', quantity: 1 })).toBeNull();
    expect(toItem({ name: 'Sticker', price: '0.07', quantity: '3', sku: 'STK-1', variant_id: '42' })).toEqual({
      id: 'gid://shopify/ProductVariant/42',
      name: 'Sticker',
      sku: 'STK-1',
      quantity: 3,
      unitPrice: 0.07,
    });
  });

  it('a fractional quantity (weighed goods) becomes one line priced at the line total', () => {
    expect(toItem({ title: 'Coffee beans (kg)', price: '24.90', quantity: '0.5' })).toEqual({
      name: 'Coffee beans (kg)',
      quantity: 1,
      unitPrice: 12.45,
    });
  });

  it('prefers email, then a phone (E.164 when it can be read so), else no customer (walk-in)', () => {
    const base = { id: '1' };
    expect(customerOf(ShopifyOrder.parse({ ...base, email: '', customer: { email: 'c@example.com' } }))).toEqual({
      type: 'email',
      value: 'c@example.com',
    });
    expect(customerOf(ShopifyOrder.parse({ ...base, phone: '+44 20 7946 0958' }))).toEqual({ type: 'phone', value: '+442079460958' });
    expect(customerOf(ShopifyOrder.parse({ ...base, customer: { phone: '+16136120707' } }))).toEqual({
      type: 'phone',
      value: '+16136120707',
    });
    expect(customerOf(ShopifyOrder.parse({ ...base, phone: '555-555-SHIP' }))).toBeUndefined();
    // Digits without a plus: read in the billing address's country, else the shipping address's, else national digits.
    expect(customerOf(ShopifyOrder.parse({ ...base, phone: '6135550123', billing_address: { country_code: 'CA' } }))).toEqual({
      type: 'phone',
      value: '+16135550123',
    });
    expect(
      customerOf(ShopifyOrder.parse({ ...base, phone: '020 7946 0958', billing_address: null, shipping_address: { country_code: 'GB' } })),
    ).toEqual({ type: 'phone', value: '+442079460958' });
    expect(customerOf(ShopifyOrder.parse({ ...base, phone: '6135550123' }))).toEqual({ type: 'phone', value: '6135550123' });
    // An email that is not one storable address is passed over for the next contact.
    expect(customerOf(ShopifyOrder.parse({ ...base, email: 'two@a.example three@b.example', contact_email: 'c@example.com' }))).toEqual({
      type: 'email',
      value: 'c@example.com',
    });
  });

  it('reports every code, with amount and type when known', () => {
    expect(
      toDiscountCodes([
        { code: 'LOYAL-7QX2', amount: '5.00', type: 'fixed_amount' },
        { code: 'SPRING10', amount: '2.50', type: 'percentage' },
        { code: 'FREESHIP', amount: null, type: 'shipping' },
        { code: '  ' },
      ]),
    ).toEqual([
      { code: 'LOYAL-7QX2', amount: 5, type: 'fixed_amount' },
      { code: 'SPRING10', amount: 2.5, type: 'percentage' },
      { code: 'FREESHIP', type: 'shipping' },
    ]);
  });
});

describe('toCatalogItem', () => {
  const variant = (overrides: Record<string, unknown>) =>
    ShopifyVariantNode.parse({
      id: 'gid://shopify/ProductVariant/1',
      title: 'Small',
      sku: 'TS-S',
      price: '19.99',
      product: { title: 'Tee', productType: 'Shirts', status: 'ACTIVE' },
      ...overrides,
    });

  it('names "Product - Variant", keeps sku, category and price', () => {
    expect(toCatalogItem(variant({}))).toEqual({
      externalId: 'gid://shopify/ProductVariant/1',
      name: 'Tee - Small',
      sku: 'TS-S',
      category: 'Shirts',
      price: 19.99,
      isActive: true,
    });
  });

  it('drops "Default Title", empty sku/type and a zero price; non-ACTIVE products are inactive', () => {
    expect(
      toCatalogItem(
        variant({ title: 'Default Title', sku: '', price: '0.00', product: { title: 'Gift card', productType: '', status: 'DRAFT' } }),
      ),
    ).toEqual({
      externalId: 'gid://shopify/ProductVariant/1',
      name: 'Gift card',
      isActive: false,
    });
  });
});

describe('stale redeliveries (X-Shopify-Triggered-At)', () => {
  const now = new Date('2026-11-25T12:00:00Z');
  it('a delivery 15 minutes or more after its event is stale (by how much); a fresh one, or one without the header, is not', () => {
    expect(staleBy({ triggeredAt: '2026-11-25T11:30:00Z' }, now)).toBe(30 * 60 * 1000);
    expect(staleBy({ triggeredAt: '2026-11-25T11:45:00.000Z' }, now)).toBe(15 * 60 * 1000);
    expect(staleBy({ triggeredAt: '2026-11-25T11:59:30Z' }, now)).toBeNull();
    expect(staleBy({ triggeredAt: null }, now)).toBeNull();
    expect(staleBy({ triggeredAt: 'yesterday' }, now)).toBeNull();
  });
});
