import { decimalToMinor, type Envelope, fromMinorUnits, type MapResult } from '@loyalty-gateway/core';
import { toIsoTime } from './map-order.js';
import { ShopifyDispute } from './native.js';
import type { ShopifyUnit } from './auth.js';
import { eventIdFor } from './event-id.js';

/** Final states in which the merchant lost the money (DisputeStatus: LOST, ACCEPTED). */
const LOST = new Set(['lost', 'accepted']);
const CURRENCY = /^[A-Z]{3}$/;

/**
 * disputes/create and disputes/update (Shopify Payments, scope read_shopify_payments_disputes) →
 * a reversal only when final and lost: a chargeback `lost` or `accepted` is `sale.refunded` on its
 * order, keyed `dispute:<id>`, for the disputed amount in the dispute's currency. Acting on the
 * final loss only means nothing ever has to be given back: needs_response, under_review and won
 * reverse nothing (a note), nor does an inquiry (not a chargeback) or a dispute without an order.
 * The dispute carries no exchange rate: its amount is sent in its own currency, and when that is
 * not the sale's, the ledger refuses it (currency_mismatch, reported in the answer's skipped).
 */
export function disputeEnvelopes(unit: ShopifyUnit, storeId: string, now: Date): MapResult {
  const parsed = ShopifyDispute.safeParse(unit.body);
  if (!parsed.success) {
    return { envelopes: [], note: `unreadable ${unit.topic} payload (${parsed.error.issues[0]?.path.join('.') ?? '?'}): nothing to do` };
  }
  const dispute = parsed.data;
  const status = dispute.status?.trim().toLowerCase() ?? '';
  const type = dispute.type?.trim().toLowerCase() ?? '';
  const what = `dispute ${dispute.id} (${type || 'no type'}, ${status || 'no status'})`;
  if (!dispute.order_id) return { envelopes: [], note: `${what} names no order: nothing to reverse` };
  if (type !== 'chargeback') return { envelopes: [], note: `${what} of order ${dispute.order_id} is not a chargeback: nothing reversed` };
  if (!LOST.has(status)) {
    const why = status === 'won' ? 'won by the merchant: nothing was reversed, nothing to give back' : 'not final: reversed only if lost';
    return { envelopes: [], note: `${what} of order ${dispute.order_id} ${why}` };
  }
  const minor = decimalToMinor(dispute.amount);
  const currency = dispute.currency?.trim().toUpperCase() ?? '';
  if (minor === null || minor <= 0 || !CURRENCY.test(currency)) {
    return {
      envelopes: [],
      note: `${what} of order ${dispute.order_id} states no usable amount ("${String(dispute.amount ?? '')}" "${dispute.currency ?? ''}"): nothing reversed`,
    };
  }
  const refundId = `dispute:${dispute.id}`;
  const envelope: Envelope = {
    eventId: eventIdFor(unit, refundId, refundId),
    eventType: 'sale.refunded',
    // When Shopify resolved it, else when it told us (the same on every retry of the event).
    occurredAt: toIsoTime(dispute.finalized_on, unit.triggeredAt) ?? now.toISOString(),
    store: { id: storeId },
    transaction: { id: dispute.order_id, currency },
    refund: { id: refundId, amount: fromMinorUnits(minor) },
  };
  return { envelopes: [envelope] };
}
