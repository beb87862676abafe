import { centsToAmount } from './cents.js';
import type { CloverOrder, CloverPayment } from './native.js';

/**
 * What the order's payments say about the money, in cents. Clover's `paymentState` is "a mushy
 * concept ... You need to do your own calculations" (a Clover engineer, community.clover.com
 * question 153), so the adapter reads the payments themselves:
 * - received: payments whose `result` is SUCCESS (a tip-adjustable PREAUTH/SUCCESS counts: its
 *   amount is captured, only the tip, outside the order total, may change);
 * - held: pre-authorisation holds (`result` AUTH): not money yet;
 * - voided: payments with `result` VOIDED, and the order's `voids` ("Voided payments associated
 *   with this order"), one per payment id;
 * - voiding: a void still in flight (VOIDING): its final state comes in a later notification.
 */
export interface OrderMoney {
  totalCents: number | null;
  receivedCents: number;
  heldCents: number;
  /** The SUCCESS payments cover the order's total. */
  paidInFull: boolean;
  voided: CloverPayment[];
  voiding: CloverPayment[];
}

/** A payment's amount when it is a positive whole number of cents, else 0. */
const positiveCents = (amount: number | null | undefined): number =>
  centsToAmount(amount) !== null && (amount as number) > 0 ? (amount as number) : 0;

const sum = (payments: readonly CloverPayment[]): number => payments.reduce((total, p) => total + positiveCents(p.amount), 0);

/**
 * The voided payments, once each: by id, and a void Clover records as a payment of its own that
 * points back at the voided one (`voidPaymentRef`: "If voided, the corresponding successful
 * payment, and vice versa") counts as the same void as the payment it names (an inference from the
 * SDK's wording; never two reversals for one void). Ordered by id, so every read keeps the same one.
 */
function distinctVoids(order: CloverOrder): CloverPayment[] {
  const candidates = [...(order.payments?.elements ?? []).filter((p) => p.result === 'VOIDED'), ...(order.voids?.elements ?? [])];
  const byId = new Map<string, CloverPayment>();
  for (const payment of candidates) if (payment.id && !byId.has(payment.id)) byId.set(payment.id, payment);
  const kept: CloverPayment[] = [];
  for (const id of [...byId.keys()].sort()) {
    const payment = byId.get(id)!;
    const pairedWithKept = kept.some((k) => k.voidPaymentRef?.id === id || payment.voidPaymentRef?.id === k.id);
    if (!pairedWithKept) kept.push(payment);
  }
  return kept;
}

export function orderMoney(order: CloverOrder): OrderMoney {
  const payments = order.payments?.elements ?? [];
  const totalCents = centsToAmount(order.total) === null ? null : (order.total as number);
  const receivedCents = sum(payments.filter((p) => p.result === 'SUCCESS'));
  return {
    totalCents,
    receivedCents,
    heldCents: sum(payments.filter((p) => p.result === 'AUTH')),
    paidInFull: totalCents !== null && receivedCents >= totalCents,
    voided: distinctVoids(order),
    voiding: payments.filter((p) => p.result === 'VOIDING'),
  };
}

/** `1234` → `12.34`, for notes (an unknown total reads "?"). */
export const money = (cents: number | null): string => (cents === null ? '?' : (cents / 100).toFixed(2));
