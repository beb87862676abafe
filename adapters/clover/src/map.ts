import { isKeyableId, vendorText, type CatalogItem, type Envelope, type MapResult } from '@loyalty-gateway/core';
import type { CloverUnit } from './auth.js';
import { msToIso, positiveAmount } from './cents.js';
import { toCustomer } from './map-customer.js';
import { toDiscountCodes } from './map-discounts.js';
import { toItems } from './map-items.js';
import { isCloverId } from './config.js';
import type { CloverItem, CloverOrder, CloverRefund } from './native.js';

/**
 * Pure mapping, Clover → canonical. No I/O: the order arrives already fetched (see api.ts).
 * Clover has no event id: `${merchantId}:${objectId}:${ts}` is stable across Clover's retries of one
 * notification; each refund envelope adds `:${refundId}` so two refunds of one order never share an
 * eventId (refund.id is the gateway's idempotency key for the reversal anyway).
 */
export const eventIdOf = (unit: CloverUnit): string => `${unit.merchantId}:${unit.objectId}:${unit.ts}`;

/** Clover orders have no channel or source field; every order is a point-of-sale order. */
export const CLOVER_CHANNEL = 'pos';

/**
 * Currency of the order. Clover returns an ISO 4217 code on every order; should it be missing,
 * USD is assumed (Clover's home market) rather than dropping a paid sale. Uncertain, isolated.
 */
export function currencyOf(order: CloverOrder): string {
  const code = order.currency?.trim().toUpperCase();
  return code && /^[A-Z]{3}$/.test(code) ? code : 'USD';
}

const skip = (note: string): MapResult => ({ envelopes: [], note });

/** When the sale was finalised: the latest successful payment, else the order's own creation. */
function saleTime(order: CloverOrder, unit: CloverUnit): string {
  const paid = (order.payments?.elements ?? [])
    .filter((p) => p.result === null || p.result === undefined || p.result === 'SUCCESS')
    .map((p) => p.createdTime)
    .filter((t): t is number => typeof t === 'number');
  const at = paid.length > 0 ? Math.max(...paid) : (order.clientCreatedTime ?? order.createdTime ?? unit.ts);
  return msToIso(at) ?? new Date(unit.ts).toISOString();
}

export function toSaleEnvelope(order: CloverOrder, unit: CloverUnit): MapResult {
  const total = positiveAmount(order.total);
  if (total === null) return skip(`order ${order.id} is ${order.paymentState ?? 'PAID'} but its total is not > 0: nothing to earn`);
  const customer = toCustomer(order.customers?.elements?.[0]);
  const discountCodes = toDiscountCodes(order);
  const envelope: Envelope = {
    eventId: eventIdOf(unit),
    eventType: 'sale.completed',
    occurredAt: saleTime(order, unit),
    store: { id: unit.merchantId },
    transaction: {
      id: order.id,
      total,
      currency: currencyOf(order),
      channel: CLOVER_CHANNEL,
      items: toItems(order.lineItems?.elements ?? []),
      ...(customer ? { customer } : {}),
      ...(discountCodes.length > 0 ? { discountCodes } : {}),
    },
  };
  return { envelopes: [envelope] };
}

function toRefundEnvelope(order: CloverOrder, refund: CloverRefund & { id: string }, amount: number, unit: CloverUnit): Envelope {
  return {
    eventId: `${eventIdOf(unit)}:${refund.id}`,
    eventType: 'sale.refunded',
    occurredAt: msToIso(refund.createdTime) ?? new Date(unit.ts).toISOString(),
    store: { id: unit.merchantId },
    transaction: { id: order.id, currency: currencyOf(order) },
    refund: { id: refund.id, amount },
  };
}

/**
 * One `sale.refunded` per refund on the order; re-sending earlier refunds is safe (deduped on
 * refund.id). Left out: voided refunds, and refunds without an id or a positive amount (an
 * amount-less refund would read as "full refund", which Clover did not say).
 */
function usableRefunds(order: CloverOrder, unit: CloverUnit): Envelope[] {
  const envelopes: Envelope[] = [];
  for (const refund of order.refunds?.elements ?? []) {
    const amount = positiveAmount(refund.amount);
    // The refund id keys the reversal: one the ledger cannot store as sent is left out, never
    // altered (Clover's are 13 characters; 200 leaves its eventId, which adds ~47, within 255).
    if (refund.voided === true || !refund.id || !isKeyableId(refund.id, 200) || amount === null) continue;
    envelopes.push(toRefundEnvelope(order, { ...refund, id: refund.id }, amount, unit));
  }
  return envelopes;
}

/**
 * A refunded order: its `sale.completed` first, then one `sale.refunded` per usable refund, in
 * that order. The sale may never have reached the gateway while the order was PAID (the fetch-back
 * failed and Clover gave up, the gateway was down, or Clover's first delivery came after a partial
 * refund): without it the sale never earns and every refund answers NOTHING_TO_REVERSE. When it did
 * arrive, the ledger answers this copy `duplicate` (keyed on the order id, like every sale of it).
 * A refund state with no usable refund maps to nothing: earning on an order Clover calls refunded,
 * with no refund to reverse it, would award points for money handed back.
 */
export function toRefundEnvelopes(order: CloverOrder, unit: CloverUnit): MapResult {
  const refunds = usableRefunds(order, unit);
  if (refunds.length === 0) return skip(`order ${order.id} is ${order.paymentState} but lists no usable refund`);
  const sale = toSaleEnvelope(order, unit);
  return { envelopes: [...sale.envelopes, ...refunds], ...(sale.note === undefined ? {} : { note: sale.note }) };
}

/** The payment states whose orders carry a sale: PAID, and the refunded ones (their sale comes first). */
export const SALE_STATES: ReadonlySet<string> = new Set(['PAID', 'REFUNDED', 'PARTIALLY_REFUNDED']);

/** A fetched order → envelopes, decided by `paymentState`. */
export function toEnvelopes(order: CloverOrder, unit: CloverUnit): MapResult {
  // The ledger keys the sale on the order id: one Clover did not write cannot be keyed faithfully.
  if (!isCloverId(order.id)) return skip(`order "${vendorText(order.id, 64)}" has no Clover id: nothing to do`);
  if (order.testMode === true) return skip(`order ${order.id} is a Clover test-mode order: ignored`);
  switch (order.paymentState) {
    case 'PAID':
      return toSaleEnvelope(order, unit);
    case 'REFUNDED':
    case 'PARTIALLY_REFUNDED':
      return toRefundEnvelopes(order, unit);
    default:
      return skip(`order ${order.id} payment state is ${order.paymentState ?? 'unset'}: not final, nothing to do`);
  }
}

/** A page's inventory items as catalog items; one whose id cannot key an item is left out (one invalid item would fail the pull). */
export const toCatalogItems = (items: readonly CloverItem[]): CatalogItem[] =>
  items.filter((item) => isKeyableId(item.id)).map(toCatalogItem);

/**
 * A Clover inventory item → CatalogItem. sku: the item's SKU, else its product code (UPC/EAN).
 * price: omitted when 0 or unset (variable-price items). isActive: shown on the register
 * (`hidden` not true) and not marked unavailable (`available` defaults to true when absent).
 */
export function toCatalogItem(item: CloverItem): CatalogItem {
  const name = vendorText(item.name?.trim() || item.alternateName?.trim() || item.id);
  const sku = item.sku?.trim() || item.code?.trim();
  const category = item.categories?.elements?.[0]?.name?.trim();
  const price = positiveAmount(item.price);
  return {
    externalId: item.id,
    name,
    ...(sku ? { sku: vendorText(sku) } : {}),
    ...(category ? { category: vendorText(category) } : {}),
    ...(price !== null ? { price } : {}),
    isActive: item.hidden !== true && item.available !== false,
  };
}
