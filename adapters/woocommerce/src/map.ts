import { fromMinorUnits, toMinorUnits, type CatalogItem, type Envelope, type MapResult } from '@loyalty-gateway/core';
import type { z } from 'zod';
import type { WoocommerceEvent, WoocommerceProduct } from './native.js';

const money = (value: string): number => {
  const minor = toMinorUnits(Number(value));
  if (minor === null) throw new Error(`not a money amount: ${value}`);
  return fromMinorUnits(minor);
};

function customer(order: WoocommerceEvent['order']): Envelope['transaction']['customer'] {
  if (order.customer?.email) return { type: 'email', value: order.customer.email };
  if (order.customer?.phone) return { type: 'phone', value: order.customer.phone };
  return undefined;
}

/** Pure: one native event → zero or one canonical envelope. */
export function toEnvelopes(event: WoocommerceEvent): MapResult {
  const { order } = event;
  const base = { eventId: event.event_id, occurredAt: event.created_at, store: { id: event.store_id } };
  if (event.event_type === 'order.refunded' && event.refund) {
    const amount = event.refund.amount ? { amount: money(event.refund.amount) } : {};
    return { envelopes: [{ ...base, eventType: 'sale.refunded', transaction: { id: order.id, currency: order.currency }, refund: { id: event.refund.id, ...amount } }] };
  }
  if (event.event_type !== 'order.paid') return { envelopes: [], note: `event ${event.event_type} is not a finalised sale` };
  if (money(order.total) <= 0) return { envelopes: [], note: 'order total is zero: nothing to earn' };
  const who = customer(order);
  return {
    envelopes: [{
      ...base,
      eventType: 'sale.completed',
      transaction: {
        id: order.id,
        total: money(order.total),
        currency: order.currency,
        channel: order.channel ?? 'pos',
        ...(who ? { customer: who } : {}),
        items: order.lines
          .filter((l) => Number.isInteger(l.quantity) && l.quantity >= 1 && money(l.unit_price) > 0)
          .map((l) => ({ ...(l.product_id ? { id: l.product_id } : {}), name: l.name, ...(l.sku ? { sku: l.sku } : {}), quantity: l.quantity, unitPrice: money(l.unit_price) })),
        discountCodes: order.discounts.map((d) => ({ code: d.code, ...(d.amount ? { amount: money(d.amount) } : {}) })),
      },
    }],
  };
}

/** Pure: a vendor product → a canonical catalog item. */
export function toCatalogItem(product: z.infer<typeof WoocommerceProduct>): CatalogItem {
  return {
    externalId: product.id,
    name: product.name,
    ...(product.sku ? { sku: product.sku } : {}),
    ...(product.category ? { category: product.category } : {}),
    ...(product.price && money(product.price) > 0 ? { price: money(product.price) } : {}),
    isActive: product.active,
  };
}
