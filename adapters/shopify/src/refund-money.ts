import { decimalToMinor } from './decimal.js';
import type { ShopifyRefund } from './native.js';

export interface RefundMoney {
  /** Minor units refunded; 0 when no successful refund transaction moved money; null when unknown. */
  minor: number | null;
  currency: string | null;
}

const CURRENCY = /^[A-Z]{3}$/;
const currencyCode = (value: string | null | undefined): string | null => {
  const code = value?.trim().toUpperCase();
  return code && CURRENCY.test(code) ? code : null;
};

/** The shop currency a refund states in its money sets (present even when the amounts are 0). */
export function refundShopCurrency(refund: ShopifyRefund): string | null {
  const sets = [
    refund.total_duties_set,
    ...(refund.refund_line_items ?? []).map((line) => line.subtotal_set),
    ...(refund.order_adjustments ?? []).map((adjustment) => adjustment.amount_set),
  ];
  for (const set of sets) {
    const code = currencyCode(set?.shop_money?.currency_code);
    if (code) return code;
  }
  return null;
}

/**
 * How much a refund gave back: the sum of its `transactions[]` of kind `refund` with status
 * `success`, in their currency. Uncertain points, kept here and tested:
 * - Shopify's documented refunds/create sample has `"currency": null` on its transactions; then
 *   the refund's shop currency (from its money sets) is assumed.
 * - Transactions of one refund in different currencies, or an amount that is not a multiple of
 *   0.01, cannot be summed: `minor` is null and the envelope omits `refund.amount`.
 * - On multi-currency stores transactions may be in the presentment currency while the sale was
 *   reported in the shop currency; that case is not distinguished here (see README).
 */
export function refundMoney(refund: ShopifyRefund): RefundMoney {
  const refunds = (refund.transactions ?? []).filter(
    (t) => t.kind?.toLowerCase() === 'refund' && t.status?.toLowerCase() === 'success',
  );
  const currencies = new Set(refunds.map((t) => currencyCode(t.currency)).filter((c): c is string => c !== null));
  const [only] = [...currencies];
  const currency = currencies.size === 1 && only ? only : refundShopCurrency(refund);
  if (refunds.length === 0) return { minor: 0, currency };
  if (currencies.size > 1) return { minor: null, currency };
  let minor = 0;
  for (const transaction of refunds) {
    const amount = decimalToMinor(transaction.amount);
    if (amount === null || amount < 0) return { minor: null, currency };
    minor += amount;
  }
  return { minor, currency };
}
