import { isKeyableId, vendorText, type SaleRefundedEnvelope } from '@loyalty-gateway/core';
import type { CloverUnit } from './auth.js';
import { msToIso, positiveAmount, validMs } from './cents.js';
import { currencyOf } from './currency.js';
import { eventIdOf } from './event-id.js';
import type { OrderMoney } from './map-money.js';
import type { CloverOrder } from './native.js';

/** Every reversal the order's current state implies, and what the adapter noticed but does not act on (yet). */
export interface Reversals {
  envelopes: SaleRefundedEnvelope[];
  notes: string[];
}

/** A vendor id as a note shows it. */
const shown = (id: string | null | undefined): string => (id ? vendorText(id, 64) : '(no id)');

/** A refund's `status` the ledger acts on: SUCCESS, or none (refunds older than the field). */
const settled = (status: string | null | undefined): boolean => status === null || status === undefined || status === 'SUCCESS';

/**
 * One reversal. `occurredAt` is the vendor's time of the movement, never later than the state it
 * is read from (`stateMs`, the order's modifiedTime): a later state that no longer lists it (a
 * refund voided, a voided order paid again) is always at or after it, so it can give it back.
 */
function reversal(
  order: CloverOrder,
  unit: CloverUnit,
  stateMs: number,
  id: string,
  cents: number,
  atMs: number | null,
): SaleRefundedEnvelope {
  return {
    eventId: `${eventIdOf(unit)}:${id}`,
    eventType: 'sale.refunded',
    occurredAt: msToIso(Math.min(atMs ?? stateMs, stateMs))!,
    store: { id: unit.merchantId },
    transaction: { id: order.id, currency: currencyOf(order) },
    refund: { id, amount: positiveAmount(cents)! },
  };
}

/**
 * The reversals of a fetched order, each keyed by Clover's own id for the movement, so a
 * redelivery, a reconciliation pull and a replay all land once:
 * - a refund (`refunds`), keyed by its id, for its `amount`, while it is not `voided` or deleted
 *   (`deletedTime`) and its `status` is SUCCESS or absent. A voided, deleted or failed refund is
 *   left out, so refunds.listed gives back one reversed earlier; a PENDING one waits (note);
 * - a manual refund (`credits`), keyed `credit:<id>`, for its `amount`, while not voided and its
 *   `result` is SUCCESS or absent;
 * - a voided payment, keyed `void:<payment id>`, for the payment's `amount` (tip apart), while the
 *   order's SUCCESS payments no longer cover its total. Paid in full again (another payment), no
 *   void is listed and refunds.listed gives it back. A same-day full refund Clover turns into a
 *   void shows up this way too: the payment VOIDED, `refunds` empty.
 * Without an id the ledger can key as sent, or without a positive amount (an amount-less reversal
 * would read as "all of it", which Clover did not say), a movement is left out.
 */
export function toReversals(order: CloverOrder, unit: CloverUnit, stateMs: number, money: OrderMoney): Reversals {
  const envelopes: SaleRefundedEnvelope[] = [];
  const notes: string[] = [];
  const seen = new Set<string>();
  const add = (id: string, amount: number | null | undefined, atMs: number | null | undefined): boolean => {
    if (seen.has(id) || !isKeyableId(id, 200) || positiveAmount(amount) === null) return false;
    seen.add(id);
    envelopes.push(reversal(order, unit, stateMs, id, amount as number, validMs(atMs)));
    return true;
  };

  for (const refund of order.refunds?.elements ?? []) {
    if (!refund.id || refund.voided === true || typeof refund.deletedTime === 'number') continue;
    if (refund.status === 'PENDING') notes.push(`refund ${shown(refund.id)} is PENDING: reversed once Clover reports it succeeded`);
    if (settled(refund.status)) add(refund.id, refund.amount, refund.createdTime);
  }
  for (const credit of order.credits?.elements ?? []) {
    if (credit.id && credit.voided !== true && settled(credit.result)) add(`credit:${credit.id}`, credit.amount, credit.createdTime);
  }
  if (money.paidInFull) {
    for (const payment of money.voided)
      notes.push(`payment ${shown(payment.id)} was voided, but the order's other payments cover its total: nothing to reverse`);
  } else {
    // At the time of the state it is read from: Clover documents no void time, and a state read
    // before the void (modified earlier), delivered late, must not give it back.
    for (const payment of money.voided) {
      if (!add(`void:${payment.id}`, payment.amount, stateMs))
        notes.push(`voided payment ${shown(payment.id)} has no usable id or amount: not reversed`);
    }
  }
  for (const payment of money.voiding) notes.push(`payment ${shown(payment.id)} is being voided: reversed once Clover reports it VOIDED`);
  return { envelopes, notes };
}
