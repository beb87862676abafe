import { decimalToMinor } from './decimal.js';
import type { ShopifyRefund } from './native.js';

export interface RefundMoney {
  /** Minor units refunded; 0 when no successful refund transaction moved money; null when unknown. */
  minor: number | null;
  currency: string | null;
  /** Set when the money was refunded in the presentment currency and cannot be stated in shop money: nothing may be reversed. */
  unconvertible?: string;
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
 * - On multi-currency stores transactions are in the presentment currency, while the sale was
 *   reported in the shop currency (`total_price`, `currency`): see `inShopMoney`.
 */
export function refundMoney(refund: ShopifyRefund): RefundMoney {
  const money = transactionMoney(refund);
  const shop = refundShopCurrency(refund);
  if (money.minor === null || money.minor === 0 || !money.currency || !shop || money.currency === shop) return money;
  return inShopMoney(refund, money.minor, money.currency, shop);
}

/**
 * A refund paid back in the presentment currency, stated in shop money, the ledger's currency (the
 * sale earned on the shop-currency `total_price`). Shopify gives no shop amount for transactions,
 * but every money set of the refund carries both: their shop / presentment ratio is the rate
 * Shopify applied, so the amount is converted with it (rounded to the cent). No money set with a
 * presentment amount in that currency: the refund cannot be stated in shop money and nothing is
 * reversed (a note says so), rather than comparing euros with dollars.
 */
export function inShopMoney(refund: ShopifyRefund, presentmentMinor: number, presentment: string, shop: string): RefundMoney {
  const sets = [
    refund.total_duties_set,
    ...(refund.refund_line_items ?? []).map((line) => line.subtotal_set),
    ...(refund.order_adjustments ?? []).map((adjustment) => adjustment.amount_set),
  ];
  let shopSum = 0;
  let presentmentSum = 0;
  for (const set of sets) {
    if (currencyCode(set?.shop_money?.currency_code) !== shop || currencyCode(set?.presentment_money?.currency_code) !== presentment)
      continue;
    const shopMinor = decimalToMinor(set?.shop_money?.amount ?? null);
    const presentmentPart = decimalToMinor(set?.presentment_money?.amount ?? null);
    if (shopMinor === null || presentmentPart === null) continue;
    shopSum += Math.abs(shopMinor);
    presentmentSum += Math.abs(presentmentPart);
  }
  if (presentmentSum === 0 || shopSum === 0) {
    return {
      minor: null,
      currency: shop,
      unconvertible: `refunded ${presentment} ${presentmentMinor / 100} in the presentment currency, and no money set of the refund gives its ${shop} value`,
    };
  }
  return { minor: Math.round((presentmentMinor * shopSum) / presentmentSum), currency: shop };
}

function transactionMoney(refund: ShopifyRefund): RefundMoney {
  const refunds = (refund.transactions ?? []).filter((t) => t.kind?.toLowerCase() === 'refund' && t.status?.toLowerCase() === 'success');
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
