import {
  isKeyableId,
  vendorText,
  type CatalogItem,
  type Envelope,
  type FeaturedEnvelope,
  type MapResult,
  type RefundsListedEnvelope,
} from '@loyalty-gateway/core';
import type { CloverUnit } from './auth.js';
import { clampMs, msToIso, positiveAmount, validMs } from './cents.js';
import { currencyOf } from './currency.js';
import { eventIdOf } from './event-id.js';
import { toCustomer } from './map-customer.js';
import { toDiscountCodes } from './map-discounts.js';
import { toItems } from './map-items.js';
import { money, orderMoney, type OrderMoney } from './map-money.js';
import { toReversals } from './map-reversals.js';
import { isCloverId } from './config.js';
import type { CloverItem, CloverOrder } from './native.js';

export { currencyOf } from './currency.js';
export { eventIdOf } from './event-id.js';

/**
 * Pure mapping, Clover → canonical. No I/O: the order arrives already fetched (see api.ts), and a
 * fetched order is its WHOLE current state: every mapping starts with the order's refunds.listed,
 * then its sale (when earned), then each reversal the state implies.
 */

/** Clover orders have no channel or source field; every order is a point-of-sale order. */
export const CLOVER_CHANNEL = 'pos';

/** The payment states whose orders carry a sale: PAID, and the refunded ones (their sale comes first). */
export const SALE_STATES: ReadonlySet<string> = new Set(['PAID', 'REFUNDED', 'PARTIALLY_REFUNDED']);

const skip = (note: string): MapResult => ({ envelopes: [], note });

/**
 * The time of the state a fetch-back read: the order's `modifiedTime`, else the notification's
 * `ts` (both Clover's clock; a `ts` past year 9999 is held there, never a thrown RangeError).
 */
export const stateTimeOf = (order: CloverOrder, unit: CloverUnit): number => validMs(order.modifiedTime) ?? clampMs(unit.ts);

/** When the sale was finalised: the latest successful payment, else the order's own creation, else the state's time. */
function saleTime(order: CloverOrder, stateMs: number): string {
  const paid = (order.payments?.elements ?? [])
    .filter((p) => p.result === null || p.result === undefined || p.result === 'SUCCESS')
    .map((p) => p.createdTime)
    .filter((t): t is number => typeof t === 'number');
  const at = paid.length > 0 ? Math.max(...paid) : (order.clientCreatedTime ?? order.createdTime);
  return msToIso(at) ?? msToIso(stateMs)!;
}

export function toSaleEnvelope(order: CloverOrder, unit: CloverUnit): MapResult {
  const total = positiveAmount(order.total);
  if (total === null) return skip(`order ${order.id} is ${order.paymentState ?? 'PAID'} but its total is not > 0: nothing to earn`);
  const customer = toCustomer(order.customers?.elements?.[0]);
  const discountCodes = toDiscountCodes(order);
  const envelope: Envelope = {
    eventId: eventIdOf(unit),
    eventType: 'sale.completed',
    occurredAt: saleTime(order, stateTimeOf(order, unit)),
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

/** How much of the order Clover holds, for a note: "12.00 of 38.34 received (5.00 held by a pre-authorisation)". */
function received(m: OrderMoney): string {
  return `${money(m.receivedCents)} of ${money(m.totalCents)} received${m.heldCents > 0 ? ` (${money(m.heldCents)} held by a pre-authorisation)` : ''}`;
}

/**
 * Whether the state earns: paid in full by Clover's `paymentState` (PAID, or refunded after being
 * paid), with a positive total. Not earned (a note says how much is received): OPEN, unset,
 * PARTIALLY_PAID or CREDITED orders (money not received, or only in part: deposits, first tenders of
 * a split), an order whose money is partly a pre-authorisation hold (AUTH: not money yet), and a
 * refunded state with nothing to reverse (earning it would award points for money handed back).
 */
function saleOf(order: CloverOrder, unit: CloverUnit, m: OrderMoney, reversals: number): MapResult {
  const state = order.paymentState ? vendorText(order.paymentState, 32) : 'unset';
  if (!SALE_STATES.has(state))
    return skip(`order ${order.id} payment state is ${state} (${received(m)}): not paid in full, nothing to earn yet`);
  if (m.heldCents > 0 && !m.paidInFull) return skip(`order ${order.id} is ${state} (${received(m)}): nothing to earn until it is captured`);
  if (state !== 'PAID' && reversals === 0) return skip(`order ${order.id} is ${state} but lists no usable refund`);
  return toSaleEnvelope(order, unit);
}

/** The reversals the vendor lists for the order as of the state's time: the ledger gives back every other one it recorded. */
function refundsListed(order: CloverOrder, unit: CloverUnit, stateMs: number, refundIds: string[]): RefundsListedEnvelope {
  return {
    eventId: `${eventIdOf(unit)}:listed`,
    eventType: 'refunds.listed',
    occurredAt: msToIso(stateMs)!,
    store: { id: unit.merchantId },
    transaction: { id: order.id },
    refundIds,
  };
}

/**
 * A fetched order → envelopes: its refunds.listed FIRST (so a reversal Clover no longer lists is
 * given back before anything else of the delivery is applied), then its sale when the state earns,
 * then every reversal of the state (map-reversals.ts). Re-sending what was applied is harmless:
 * the sale is keyed on the order id, each reversal on Clover's id for it, and a repeated
 * refunds.listed withdraws nothing.
 */
export function toEnvelopes(order: CloverOrder, unit: CloverUnit): MapResult {
  // The ledger keys the sale on the order id: one Clover did not write cannot be keyed faithfully.
  if (!isCloverId(order.id)) return skip(`order "${vendorText(order.id, 64)}" has no Clover id: nothing to do`);
  if (order.testMode === true) return skip(`order ${order.id} is a Clover test-mode order: ignored`);
  const stateMs = stateTimeOf(order, unit);
  const m = orderMoney(order);
  const reversals = toReversals(order, unit, stateMs, m);
  const sale = saleOf(order, unit, m, reversals.envelopes.length);
  const envelopes: FeaturedEnvelope[] = [
    refundsListed(
      order,
      unit,
      stateMs,
      reversals.envelopes.map((r) => r.refund.id),
    ),
    ...sale.envelopes,
    ...reversals.envelopes,
  ];
  const notes = [...(sale.note === undefined ? [] : [sale.note]), ...reversals.notes];
  return { envelopes, ...(notes.length > 0 ? { note: notes.join('; ') } : {}) };
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
