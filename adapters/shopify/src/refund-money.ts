import { decimalToMinor } from '@loyalty-gateway/core';
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

type MoneySet = NonNullable<ShopifyRefund['total_duties_set']>;

/**
 * The money sets of a refund that state one part of it in both currencies, each at the rate Shopify
 * applied to the refund. `primary` are the ones the reconciliation reads back too (GraphQL has the
 * same objects: refundLineItems' subtotalSet and totalTaxSet, refundShippingLines' subtotalAmountSet,
 * orderAdjustments' amountSet, duties), so both compute the same rate and so the same amount (a
 * cent apart would be one refund id with two amounts: refused). `fallback` (additional fees) exists
 * in REST only: used only when no primary set gives a rate, where the read-back then states none
 * and reverses nothing rather than another amount.
 *
 * A shipping refund appears twice in a REST body recorded on 2026-07 (`refund_shipping_lines` and an
 * order adjustment of kind `shipping_refund`), while the 2024-10 changelog says refunds/create no
 * longer carries the adjustment and GraphQL's orderAdjustments never does: with shipping lines
 * present, the `shipping_refund` adjustments are left out, so the shipping counts once on both paths.
 */
export function refundMoneySets(refund: ShopifyRefund): { primary: MoneySet[]; fallback: MoneySet[] } {
  const shippingLines = refund.refund_shipping_lines ?? [];
  const adjustments = (refund.order_adjustments ?? []).filter(
    (adjustment) => !(shippingLines.length > 0 && adjustment.kind?.trim().toLowerCase() === 'shipping_refund'),
  );
  const present = (set: MoneySet | null | undefined): set is MoneySet => set != null;
  return {
    primary: [
      refund.total_duties_set,
      ...(refund.refund_line_items ?? []).flatMap((line) => [line.subtotal_set, line.total_tax_set]),
      ...shippingLines.map((line) => line.subtotal_amount_set),
      ...adjustments.map((adjustment) => adjustment.amount_set),
    ].filter(present),
    fallback: [refund.total_additional_fees_set].filter(present),
  };
}

/** The shop currency a refund states in its money sets (present even when the amounts are 0). */
export function refundShopCurrency(refund: ShopifyRefund): string | null {
  const { primary, fallback } = refundMoneySets(refund);
  for (const set of [...primary, ...fallback]) {
    const code = currencyCode(set.shop_money?.currency_code);
    if (code) return code;
  }
  return null;
}

/** Refund transactions that count: kind `refund`, not test-mode (a test gateway returns no money). */
const liveRefunds = (refund: ShopifyRefund) =>
  (refund.transactions ?? []).filter((t) => t.kind?.trim().toLowerCase() === 'refund' && t.test !== true);

/** Final transaction states (`order_transactions/create` fires "only for transactions with a status of success, failure or error"). */
const SETTLED = new Set(['success', 'failure', 'error']);

/**
 * Whether a refund still waits for money to move: one of its live refund transactions is not
 * settled (pending, awaiting_response, unknown). Shopify: "The existence of a Refund object doesn't
 * guarantee that the money has been returned … check the status of the associated transactions."
 * Such a refund is not reversed yet, so the amount recorded under its id is the final one (a
 * changed amount under one refund id is refused by the ledger).
 */
export function refundPending(refund: ShopifyRefund): boolean {
  return liveRefunds(refund).some((t) => !SETTLED.has(t.status?.trim().toLowerCase() ?? ''));
}

/**
 * How much a refund gave back: the sum of its live `transactions[]` of kind `refund` with status
 * `success`, in their currency, whatever the gateway: the card's, `gift_card` or
 * `shopify_store_credit` (the customer got the value back; spending it later earns on that order).
 * Uncertain points, kept here and tested:
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

/** Shop and presentment totals of the sets stating both currencies (absolute: adjustments are negative). */
function sums(sets: readonly MoneySet[], shop: string, presentment: string): { shopSum: number; presentmentSum: number } {
  let shopSum = 0;
  let presentmentSum = 0;
  for (const set of sets) {
    if (currencyCode(set.shop_money?.currency_code) !== shop || currencyCode(set.presentment_money?.currency_code) !== presentment)
      continue;
    const shopMinor = decimalToMinor(set.shop_money?.amount ?? null);
    const presentmentPart = decimalToMinor(set.presentment_money?.amount ?? null);
    if (shopMinor === null || presentmentPart === null) continue;
    shopSum += Math.abs(shopMinor);
    presentmentSum += Math.abs(presentmentPart);
  }
  return { shopSum, presentmentSum };
}

/**
 * A refund paid back in the presentment currency, stated in shop money, the ledger's currency (the
 * sale earned on the shop-currency `total_price`). Shopify gives no shop amount for transactions,
 * but the money sets of the refund carry both: their shop / presentment ratio is the rate Shopify
 * applied, so the amount is converted with it (rounded to the cent). A shipping-only refund has no
 * line: its rate is read from `refund_shipping_lines`; a tax-only one from the lines' tax sets. No
 * money set with a presentment amount in that currency: the refund cannot be stated in shop money
 * and nothing is reversed (a note says so), rather than comparing euros with dollars.
 */
export function inShopMoney(refund: ShopifyRefund, presentmentMinor: number, presentment: string, shop: string): RefundMoney {
  const { primary, fallback } = refundMoneySets(refund);
  let { shopSum, presentmentSum } = sums(primary, shop, presentment);
  if (presentmentSum === 0 || shopSum === 0) ({ shopSum, presentmentSum } = sums(fallback, shop, presentment));
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
  const refunds = liveRefunds(refund).filter((t) => t.status?.trim().toLowerCase() === 'success');
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
