import { type Envelope, fromMinorUnits, type MapResult } from '@loyalty-gateway/core';
import { toIsoTime } from './map-order.js';
import { ShopifyRefund } from './native.js';
import { refundMoney, refundPending } from './refund-money.js';
import { refundTestReason } from './test-notification.js';
import type { ShopifyUnit } from './auth.js';
import { eventIdFor } from './event-id.js';

/**
 * refunds/create → sale.refunded on the original order id, keyed by the refund id, with the amount
 * actually refunded (its settled transactions, whatever the gateway: card, gift card, store
 * credit). A refund with a transaction still pending is not reversed yet: it is once its
 * transactions settle (order_transactions/create re-reads the order, and the reconciliation reads
 * it), with its final amount, so one refund id never carries two amounts.
 */
export function refundEnvelopes(unit: ShopifyUnit, storeId: string, now: Date): MapResult {
  const parsed = ShopifyRefund.safeParse(unit.body);
  if (!parsed.success) {
    return { envelopes: [], note: `unreadable ${unit.topic} payload (${parsed.error.issues[0]?.path.join('.') ?? '?'}): nothing to do` };
  }
  const refund = parsed.data;
  const testReason = refundTestReason(refund);
  if (testReason) return { envelopes: [], note: testReason };
  if (refundPending(refund)) {
    return {
      envelopes: [],
      note: `refund ${refund.id} of order ${refund.order_id} has a refund transaction still pending: nothing reversed yet (reversed when its transactions settle)`,
    };
  }
  const money = refundMoney(refund);
  if (money.unconvertible) {
    return {
      envelopes: [],
      note: `refund ${refund.id} of order ${refund.order_id} ${money.unconvertible}: nothing reversed (the sale earned in shop money)`,
    };
  }
  if (money.minor === 0) {
    return {
      envelopes: [],
      note: `refund ${refund.id} of order ${refund.order_id} moved no money (no successful refund transaction): nothing to reverse`,
    };
  }
  if (!money.currency) {
    return { envelopes: [], note: `refund ${refund.id} of order ${refund.order_id} states no currency: cannot be reported` };
  }
  const envelope: Envelope = {
    eventId: eventIdFor(unit, refund.id, refund.id),
    eventType: 'sale.refunded',
    occurredAt: toIsoTime(refund.processed_at, refund.created_at) ?? now.toISOString(),
    store: { id: storeId },
    transaction: { id: refund.order_id, currency: money.currency },
    // Omitted only when the amount cannot be computed (the spec then reverses in full).
    refund: { id: refund.id, ...(money.minor !== null ? { amount: fromMinorUnits(money.minor) } : {}) },
  };
  return { envelopes: [envelope] };
}
