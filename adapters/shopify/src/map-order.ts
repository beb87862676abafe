import { decimalToMinor, type Envelope, fromMinorUnits, type MapResult, type Transaction } from '@loyalty-gateway/core';
import { customerOf } from './map-customer.js';
import { toDiscountCodes, toItems } from './map-items.js';
import { ShopifyOrder } from './native.js';
import { orderTestReason } from './test-notification.js';
import type { ShopifyUnit } from './auth.js';
import { eventIdFor } from './event-id.js';

/**
 * A vendor timestamp ("2008-01-10T11:00:00-05:00") as canonical UTC ISO, or null. A year outside
 * 0000–9999 ("+010000-01-01…" parses) is none: its ISO text is not one the canonical schema takes.
 */
export function toIsoTime(...values: Array<string | null | undefined>): string | null {
  for (const value of values) {
    const ms = value ? Date.parse(value) : Number.NaN;
    if (Number.isNaN(ms)) continue;
    const iso = new Date(ms).toISOString();
    if (/^\d{4}-/.test(iso)) return iso;
  }
  return null;
}

const CURRENCY = /^[A-Z]{3}$/;

/**
 * The financial states of an order paid in full (GraphQL's displayFinancialStatus PAID,
 * PARTIALLY_REFUNDED, REFUNDED, the same set the reconciliation reads): a refund later does not
 * unpay it, and its refunds arrive as refunds/create.
 */
const PAID_IN_FULL = new Set(['paid', 'partially_refunded', 'refunded']);

/**
 * Why an order must not earn yet (not paid in full), or null. Money not received never earns:
 * `financial_status` must say paid (pending, authorized, partially_paid and voided do not) and
 * `total_outstanding`, when present, must be 0. The note says how much of the total was received.
 */
export function notPaidInFull(order: ShopifyOrder, totalMinor: number, currency: string): string | null {
  const status = order.financial_status?.trim().toLowerCase() ?? '';
  const outstanding = order.total_outstanding == null ? 0 : decimalToMinor(order.total_outstanding);
  if (PAID_IN_FULL.has(status) && outstanding === 0) return null;
  const total = `${fromMinorUnits(totalMinor).toFixed(2)} ${currency}`;
  const received =
    outstanding !== null && outstanding > 0 && outstanding <= totalMinor
      ? `${fromMinorUnits(totalMinor - outstanding).toFixed(2)} of ${total} received, ${fromMinorUnits(outstanding).toFixed(2)} outstanding`
      : `total ${total}, outstanding "${String(order.total_outstanding ?? '')}"`;
  return `order ${order.id} is not paid in full (financial_status "${order.financial_status ?? ''}", ${received}): nothing earned yet (it earns once, when paid in full)`;
}

/** The order as a canonical transaction, or the reason it cannot earn (`paid`: only when paid in full). */
export function orderTransaction(order: ShopifyOrder, paid: boolean): Transaction | string {
  const currency = order.currency?.trim().toUpperCase() ?? '';
  if (!CURRENCY.test(currency)) return `order ${order.id} has no usable currency ("${order.currency ?? ''}"): nothing to do`;
  // total_price is what the customer paid after discounts (tax and shipping included), in the
  // shop currency; later refunds arrive as refunds/create, so current_total_price is not used.
  const totalMinor = decimalToMinor(order.total_price);
  if (totalMinor === null) return `order ${order.id} total "${String(order.total_price)}" is not an amount in cents: nothing to do`;
  if (totalMinor <= 0) return `order ${order.id} paid total is not > 0 (${String(order.total_price)}): nothing to earn`;
  const unpaid = paid ? notPaidInFull(order, totalMinor, currency) : null;
  if (unpaid) return unpaid;
  const customer = customerOf(order);
  const discountCodes = toDiscountCodes(order.discount_codes);
  return {
    id: order.id,
    total: fromMinorUnits(totalMinor),
    currency,
    channel: order.source_name?.trim().slice(0, 50) || 'web',
    ...(customer ? { customer } : {}),
    items: toItems(order.line_items),
    ...(discountCodes.length > 0 ? { discountCodes } : {}),
  };
}

/**
 * orders/paid → sale.completed, once per order id, on `total_price`, when paid in full.
 * orders/cancelled → sale.voided, which the partner API accepts and the ledger ignores, with a
 * note: a cancellation moves no money by itself; what it gives back (to the card, a gift card,
 * store credit) is a Refund, delivered as refunds/create and reversed from there. A paid order
 * cancelled without a refund keeps its points (the merchant kept the money).
 */
export function orderEnvelopes(eventType: 'sale.completed' | 'sale.voided', unit: ShopifyUnit, storeId: string, now: Date): MapResult {
  const parsed = ShopifyOrder.safeParse(unit.body);
  if (!parsed.success) {
    return { envelopes: [], note: `unreadable ${unit.topic} payload (${parsed.error.issues[0]?.path.join('.') ?? '?'}): nothing to do` };
  }
  const order = parsed.data;
  const testReason = orderTestReason(order);
  if (testReason) return { envelopes: [], note: testReason };
  const transaction = orderTransaction(order, eventType === 'sale.completed');
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
  if (eventType === 'sale.voided') {
    return {
      envelopes: [envelope],
      note: `order ${order.id} cancelled: nothing reversed by the cancellation itself (money given back arrives as refunds/create)`,
    };
  }
  return { envelopes: [envelope] };
}
