import {
  decimalToMinor,
  fromMinorUnits,
  vendorText,
  type CatalogItem,
  type Envelope,
  type Item,
  type MapResult,
} from '@loyalty-gateway/core';
import { WooOrder, type WooProduct } from './native.js';

/** The statuses WooCommerce counts as paid (wc_get_is_paid_statuses); a sale also needs date_paid. */
const PAID = new Set(['processing', 'completed']);
/** Topics whose payload is the full order. order.deleted carries only the id. */
export const ORDER_TOPICS = new Set(['order.created', 'order.updated', 'order.restored']);

/** A GMT time WooCommerce writes without its zone ("2017-03-22T19:28:08") as canonical UTC ISO. */
const gmt = (value: string | null | undefined): string | null => {
  const ms = value ? Date.parse(/[zZ]|[+-]\d\d:\d\d$/.test(value) ? value : `${value}Z`) : Number.NaN;
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
};

/** A line at its price after discounts (`total`), per unit when that is whole cents, else as one line. */
function toItem(line: WooOrder['line_items'][number]): Item | null {
  const totalMinor = decimalToMinor(line.total);
  if (totalMinor === null || totalMinor <= 0 || !Number.isInteger(line.quantity) || line.quantity < 1) return null;
  const base = {
    ...(line.product_id ? { id: String(line.product_id) } : {}),
    name: vendorText(line.name) || 'Item',
    ...(line.sku ? { sku: vendorText(line.sku) } : {}),
  };
  const exact = totalMinor % line.quantity === 0;
  return { ...base, quantity: exact ? line.quantity : 1, unitPrice: fromMinorUnits(exact ? totalMinor / line.quantity : totalMinor) };
}

function customerOf(order: WooOrder): Envelope['transaction']['customer'] {
  const email = order.billing?.email?.trim();
  if (email) return { type: 'email', value: vendorText(email) };
  const phone = order.billing?.phone?.trim();
  return phone ? { type: 'phone', value: vendorText(phone) } : undefined;
}

/**
 * Pure: one WooCommerce order → its canonical envelopes. A paid order (`processing` or `completed`
 * with `date_paid`) is one sale.completed keyed by the order id; each entry of `refunds[]` is one
 * sale.refunded keyed by the refund id. Every order.updated carries them all again: the ledger's
 * unique keys make the sale and the refunds already seen duplicates, so only new ones change points.
 * The reconciliation pull maps the orders it lists with this same function.
 */
export function orderEnvelopes(body: unknown, storeId: string): MapResult {
  const parsed = WooOrder.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { envelopes: [], note: `unreadable WooCommerce order (${issue?.path.join('.') ?? '?'} ${issue?.message ?? ''}): nothing to do` };
  }
  const order = parsed.data;
  const id = String(order.id);
  const currency = order.currency.trim().toUpperCase();
  // WooCommerce writes its store's ISO 4217 code; anything else cannot be earned or compared with a sale.
  if (!/^[A-Z]{3}$/.test(currency))
    return { envelopes: [], note: `order ${id} currency "${order.currency}" is not a three-letter currency code: nothing to do` };
  const store = { id: storeId };
  const envelopes: Envelope[] = [];
  const notes: string[] = [];
  const paidAt = gmt(order.date_paid_gmt);
  const totalMinor = decimalToMinor(order.total);
  if (!PAID.has(order.status) || !paidAt) notes.push(`order ${id} is ${order.status}${paidAt ? '' : ', not paid'}: nothing to earn`);
  else if (totalMinor === null || totalMinor <= 0)
    notes.push(`order ${id} total "${order.total}" is not a positive amount: nothing to earn`);
  else {
    const customer = customerOf(order);
    const discountCodes = order.coupon_lines.map((c) => ({
      code: vendorText(c.code),
      ...(decimalToMinor(c.discount) !== null ? { amount: Math.abs(fromMinorUnits(decimalToMinor(c.discount)!)) } : {}),
    }));
    envelopes.push({
      eventId: `${id}:paid`,
      eventType: 'sale.completed',
      occurredAt: paidAt,
      store,
      transaction: {
        id,
        total: fromMinorUnits(totalMinor),
        currency,
        channel: 'web',
        ...(customer ? { customer } : {}),
        items: order.line_items.map(toItem).filter((item): item is Item => item !== null),
        ...(discountCodes.length > 0 ? { discountCodes } : {}),
      },
    });
  }
  const refundedAt = gmt(order.date_modified_gmt) ?? paidAt ?? new Date(0).toISOString();
  for (const refund of order.refunds) {
    const minor = decimalToMinor(refund.total);
    if (minor === null || minor === 0) notes.push(`refund ${refund.id} total "${refund.total}" is not an amount to reverse: skipped`);
    else
      envelopes.push({
        eventId: `${id}:refund:${refund.id}`,
        eventType: 'sale.refunded',
        occurredAt: refundedAt,
        store,
        transaction: { id, currency },
        refund: { id: String(refund.id), amount: fromMinorUnits(Math.abs(minor)) },
      });
  }
  return { envelopes, ...(notes.length > 0 ? { note: notes.join('; ') } : {}) };
}

/** Pure: a product → a catalog item; active when published (and purchasable, when WooCommerce says). */
export function toCatalogItem(product: WooProduct): CatalogItem {
  const priceMinor = decimalToMinor(product.price);
  const category = product.categories[0]?.name;
  return {
    externalId: String(product.id),
    name: vendorText(product.name) || 'Untitled product',
    ...(product.sku ? { sku: vendorText(product.sku) } : {}),
    ...(category ? { category: vendorText(category) } : {}),
    ...(priceMinor !== null && priceMinor > 0 ? { price: fromMinorUnits(priceMinor) } : {}),
    isActive: product.status === 'publish' && product.purchasable !== false,
  };
}
