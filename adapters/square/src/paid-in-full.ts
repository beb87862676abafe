import type { SquareOrder, SquarePayment, SquareTender } from './native.js';
import { formatSquareAmount } from './square-money.js';

/** Whether an order's money has all been received: the only time its sale earns (README, "Money lifecycle"). */
export type PaidState = { paid: true } | { paid: false; note: string };

/** A tender whose card (or bank account, BNPL, Square account) transaction was voided or failed brought no money. */
const NO_MONEY = new Set(['VOIDED', 'FAILED']);

function brought(tender: SquareTender): boolean {
  const details = [tender.card_details, tender.bank_account_details, tender.buy_now_pay_later_details, tender.square_account_details];
  return !details.some((detail) => NO_MONEY.has(detail?.status ?? ''));
}

/** The order's tenders that brought money (an amount > 0, not voided or failed), in Square's order. */
export function paidTenders(order: SquareOrder): SquareTender[] {
  return (order.tenders ?? []).filter((tender) => brought(tender) && (tender.amount_money?.amount ?? 0) > 0);
}

/** An amount in `currency` that can be added up exactly, else null. */
function minor(money: { amount?: number | null | undefined; currency?: string | null | undefined } | null | undefined, currency: string) {
  const amount = money?.amount;
  return money?.currency === currency && typeof amount === 'number' && Number.isSafeInteger(amount) && amount >= 0 ? amount : null;
}

/**
 * Is `order` paid in full? Square keys sales, refunds and tills' redemptions by the ORDER, so an
 * order earns once, on its total, when all of it is paid — never on a deposit or the first of
 * several tenders. Paid in full when:
 * - `state` is COMPLETED ("Completed orders are fully paid"); never when CANCELED ("not paid") or
 *   DRAFT ("cannot be paid");
 * - or `net_amount_due_money` is present and 0 (a cross-check: Square defines it in one sentence);
 * - or the order's tenders, less those voided or failed, add up to `total_money`. An OPEN order
 *   can be paid in full (pickup, shipment and payment-link orders stay OPEN until fulfilled).
 *   The payment being mapped counts when the order does not list it yet (it is COMPLETED: the
 *   money is received).
 * `totalMinor` and `currency` are the order's `total_money`, already checked to be > 0.
 */
export function paidState(order: SquareOrder, payment: SquarePayment | null, totalMinor: number, currency: string): PaidState {
  const state = order.state ?? 'UNKNOWN';
  if (state === 'COMPLETED') return { paid: true };
  if (state === 'CANCELED')
    return { paid: false, note: `Square order ${order.id} is CANCELED: a canceled order is not paid, nothing to earn` };
  if (state === 'DRAFT') return { paid: false, note: `Square order ${order.id} is DRAFT: a draft order cannot be paid, nothing to earn` };
  if (order.net_amount_due_money?.amount === 0) return { paid: true };
  const tenders = order.tenders ?? [];
  let received = 0;
  for (const tender of tenders) {
    const amount = minor(tender.amount_money, currency);
    if (amount !== null && brought(tender)) received += amount;
  }
  if (payment?.status === 'COMPLETED' && !tenders.some((t) => t.id === payment.id || t.payment_id === payment.id)) {
    received += minor(payment.total_money ?? payment.amount_money, currency) ?? 0;
  }
  if (received >= totalMinor) return { paid: true };
  return {
    paid: false,
    note:
      `Square order ${order.id}: ${formatSquareAmount(received, currency)} of ${formatSquareAmount(totalMinor, currency)} ${currency} ` +
      'received; earns when paid in full',
  };
}
