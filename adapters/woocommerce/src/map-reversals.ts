import { decimalToMinor, fromMinorUnits, type RefundsListedEnvelope, type SaleRefundedEnvelope } from '@loyalty-gateway/core';
import type { WooOrder } from './native.js';

/**
 * Statuses that undo a paid order with no refund record: core treats a cancel as undoing the sale
 * (its sales counts and coupon usage), and Stripe moves an order whose dispute is lost to failed
 * without creating a refund. `date_paid` is never cleared, so a paid order keeps saying it was.
 */
export const UNDOING = new Set(['cancelled', 'failed']);

/** What the adapter knows of the order being mapped, already read and checked. */
export interface OrderState {
  order: WooOrder;
  id: string;
  currency: string;
  store: { id: string };
  /** date_paid_gmt as ISO: set once, never cleared (WC_Order::maybe_set_date_paid). */
  paidAt: string | null;
  /** date_modified_gmt as ISO: the time of this state, the clock of every reversal this adapter reports. */
  modifiedAt: string | null;
}

export interface OrderReversals {
  /** refunds.listed, when the order was paid and its state can be placed in time; goes first. */
  listed: RefundsListedEnvelope | null;
  reversals: SaleRefundedEnvelope[];
  notes: string[];
}

/**
 * Pure: the reversals one whole order state carries. Each usable entry of `refunds[]` is one
 * sale.refunded keyed by WooCommerce's refund id; a paid order that is cancelled or failed is one
 * more, in full, keyed by the order and the time of that state (each cancellation its own: an
 * order can be cancelled, reopened and cancelled again). All of them at the state's
 * date_modified_gmt, the same clock as the refunds.listed that names them: a refund WooCommerce
 * deletes, or a cancellation undone, is simply no longer listed, and the ledger gives it back.
 */
export function orderReversals({ order, id, currency, store, paidAt, modifiedAt }: OrderState): OrderReversals {
  const notes: string[] = [];
  const reversals: SaleRefundedEnvelope[] = [];
  const at = modifiedAt ?? paidAt ?? new Date(0).toISOString();
  for (const refund of order.refunds) {
    const minor = decimalToMinor(refund.total);
    if (minor === null || minor === 0) notes.push(`refund ${refund.id} total "${refund.total}" is not an amount to reverse: skipped`);
    else
      reversals.push({
        eventId: `${id}:refund:${refund.id}`,
        eventType: 'sale.refunded',
        occurredAt: at,
        store,
        transaction: { id, currency },
        refund: { id: String(refund.id), amount: fromMinorUnits(Math.abs(minor)) },
      });
  }
  // Only a paid order has a sale to speak of (an unpaid one never earned: no engine call for it).
  if (!paidAt) return { listed: null, reversals, notes };
  if (!modifiedAt) {
    notes.push(
      `order ${id} has no readable date_modified_gmt: the reversals it lists cannot be placed in time, none is given back or added for its status`,
    );
    return { listed: null, reversals, notes };
  }
  if (UNDOING.has(order.status)) {
    // The order id is part of it: refund ids are unique per store, and a bulk action cancels many orders in one second.
    const undo = `${order.status}:${id}:${modifiedAt}`;
    reversals.push({
      eventId: `${id}:${order.status}:${modifiedAt}`,
      eventType: 'sale.refunded',
      occurredAt: modifiedAt,
      store,
      transaction: { id, currency },
      refund: { id: undo },
    });
    notes.push(`order ${id} was paid and is ${order.status}: its earn is reversed in full (${undo})`);
  }
  const listed: RefundsListedEnvelope = {
    eventId: `${id}:refunds:${modifiedAt}`,
    eventType: 'refunds.listed',
    occurredAt: modifiedAt,
    store,
    transaction: { id },
    refundIds: reversals.map((r) => r.refund.id),
  };
  return { listed, reversals, notes };
}
