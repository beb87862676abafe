import type { Envelope, MapResult, Transaction } from '@loyalty-gateway/core';
import { decimalToMinor, minorToAmount } from './decimal.js';
import { customerOf } from './map-customer.js';
import { toDiscountCodes, toItems } from './map-items.js';
import { ShopifyOrder } from './native.js';
import { orderTestReason } from './test-notification.js';
import { eventIdFor, type ShopifyUnit } from './webhook-unit.js';

/** A vendor timestamp ("2008-01-10T11:00:00-05:00") as canonical UTC ISO, or null. */
export function toIsoTime(...values: Array<string | null | undefined>): string | null {
  for (const value of values) {
    const ms = value ? Date.parse(value) : Number.NaN;
    if (!Number.isNaN(ms)) return new Date(ms).toISOString();
  }
  return null;
}

const CURRENCY = /^[A-Z]{3}$/;

/** The order as a canonical transaction, or the reason it cannot earn. */
export function orderTransaction(order: ShopifyOrder): Transaction | string {
  const currency = order.currency?.trim().toUpperCase() ?? '';
  if (!CURRENCY.test(currency)) return `order ${order.id} has no usable currency ("${order.currency ?? ''}"): nothing to do`;
  // total_price is what the customer paid after discounts (tax and shipping included), in the
  // shop currency; later refunds arrive as refunds/create, so current_total_price is not used.
  const totalMinor = decimalToMinor(order.total_price);
  if (totalMinor === null) return `order ${order.id} total "${String(order.total_price)}" is not an amount in cents: nothing to do`;
  if (totalMinor <= 0) return `order ${order.id} paid total is not > 0 (${String(order.total_price)}): nothing to earn`;
  const customer = customerOf(order);
  const discountCodes = toDiscountCodes(order.discount_codes);
  return {
    id: order.id,
    total: minorToAmount(totalMinor),
    currency,
    channel: order.source_name?.trim().slice(0, 50) || 'web',
    ...(customer ? { customer } : {}),
    items: toItems(order.line_items),
    ...(discountCodes.length > 0 ? { discountCodes } : {}),
  };
}

/** orders/paid → sale.completed; orders/cancelled → sale.voided (the spec accepts and ignores it). */
export function orderEnvelopes(eventType: 'sale.completed' | 'sale.voided', unit: ShopifyUnit, storeId: string, now: Date): MapResult {
  const parsed = ShopifyOrder.safeParse(unit.body);
  if (!parsed.success) {
    return { envelopes: [], note: `unreadable ${unit.topic} payload (${parsed.error.issues[0]?.path.join('.') ?? '?'}): nothing to do` };
  }
  const order = parsed.data;
  const testReason = orderTestReason(order);
  if (testReason) return { envelopes: [], note: testReason };
  const transaction = orderTransaction(order);
  if (typeof transaction === 'string') return { envelopes: [], note: transaction };
  const occurredAt =
    (eventType === 'sale.voided' ? toIsoTime(order.cancelled_at) : null) ??
    toIsoTime(order.processed_at, order.created_at) ??
    now.toISOString();
  const envelope: Envelope = {
    eventId: eventIdFor(unit, order.id),
    eventType,
    occurredAt,
    store: { id: storeId },
    transaction,
  };
  return { envelopes: [envelope] };
}
