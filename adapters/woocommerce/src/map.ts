import {
  decimalToMinor,
  fromMinorUnits,
  vendorCustomer,
  vendorText,
  type CatalogItem,
  type FeaturedEnvelope,
  type Item,
  type MapResult,
} from '@loyalty-gateway/core';
import { gmt } from './gmt.js';
import { UNDOING, orderReversals } from './map-reversals.js';
import { WooOrder, type WooProduct } from './native.js';

/** The statuses WooCommerce counts as paid (wc_get_is_paid_statuses); a sale also needs date_paid. */
const PAID = new Set(['processing', 'completed']);
/** Paid orders a dispute or a manual change parks: the earn stands until the order moves on. */
const PARKED = new Set(['on-hold', 'pending']);
/** Topics whose payload is the full order. order.deleted carries only the id. */
export const ORDER_TOPICS = new Set(['order.created', 'order.updated', 'order.restored']);

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

/** The billing email, else the billing phone read in the billing country (ISO 3166-1 alpha-2), else a walk-in. */
function customerOf(order: WooOrder) {
  const billing = order.billing;
  return vendorCustomer({
    emails: [billing?.email],
    phones: [billing?.phone],
    country: typeof billing?.country === 'string' ? billing.country : null,
  });
}

/** Why a paid-or-not order's status earns nothing, or null when it earns or its reversal already says so. */
function statusNote(order: WooOrder, id: string, paidAt: string | null): string | null {
  const { status } = order;
  if (!paidAt) return `order ${id} is ${status}, not paid: nothing to earn`;
  if (PAID.has(status) || UNDOING.has(status)) return null;
  if (status === 'refunded') return `order ${id} is refunded: its refunds[] entries are what is reversed, nothing for the status itself`;
  if (PARKED.has(status))
    return `order ${id} is ${status} after payment: its earn stands until WooCommerce moves the order on (a refund, cancelled or failed, or back to processing/completed)`;
  return `order ${id} is ${status}: nothing to earn`;
}

/**
 * Pure: one WooCommerce order, its whole current state → its canonical envelopes. First, for an
 * order ever paid (`date_paid`), refunds.listed: every reversal WooCommerce still lists for it as
 * of its date_modified, so the ledger gives back one it no longer lists (a refund deleted, a
 * cancellation undone). Then the sale: a paid order (`processing` or `completed` with
 * `date_paid`) is one sale.completed keyed by the order id. Then the reversals (map-reversals.ts).
 * Every order.updated carries them all again: the ledger's unique keys make the sale and the
 * refunds already seen duplicates, so only new ones change points. The reconciliation pull maps
 * the orders it reads with this same function.
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
  const envelopes: FeaturedEnvelope[] = [];
  const notes: string[] = [];
  const paidAt = gmt(order.date_paid_gmt);
  const {
    listed,
    reversals,
    notes: reversalNotes,
  } = orderReversals({ order, id, currency, store, paidAt, modifiedAt: gmt(order.date_modified_gmt) });
  if (listed) envelopes.push(listed);
  const totalMinor = decimalToMinor(order.total);
  const why = statusNote(order, id, paidAt);
  if (why) notes.push(why);
  else if (!PAID.has(order.status)) {
    // Cancelled or failed after payment: nothing to earn, the reversal says it.
  } else if (totalMinor === null || totalMinor <= 0)
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
      occurredAt: paidAt!,
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
  envelopes.push(...reversals);
  notes.push(...reversalNotes);
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
