import { decimalToMinor, type FeaturedEnvelope, fromMinorUnits } from '@loyalty-gateway/core';
import { z } from 'zod';
import { shopifyGraphql, type ShopifyContext } from './api.js';
import { refundEnvelopes } from './map-refund.js';
import type { ShopifyUnit } from './auth.js';

/** Lines read per order (2 + pageInfo + 50 × 5 points: the line, its price set and money, variant, product). */
export const RECONCILE_LINE_ITEMS = 50;
/** Refunds read per order (8 × 79 points, counted below). */
export const RECONCILE_REFUNDS = 8;

/**
 * Both sides of a MoneyBag: a refund's money sets, whose shop / presentment ratio is the rate
 * Shopify applied (refund-money.ts reads the same sets from the REST refund).
 */
const BOTH = 'shopMoney { amount currencyCode } presentmentMoney { amount currencyCode }';

/**
 * One order as the webhooks' mapping needs it, read back alone (`order(id:)`, read_orders): by the
 * reconciliation for each order it lists, and by order_transactions/create to see a refund whose
 * transactions settled. The order's own `email` / `phone`, not its `customer` (reading the Customer
 * object can need read_customers; the webhook mapping prefers the order's own).
 *
 * Shopify refuses a query whose requested cost is over 1,000 points; an object costs 1, a
 * connection 2 + first × its node (scalars are free). Counted:
 * - the order 1, totalPriceSet 2, totalOutstandingSet 2, billingAddress 1, shippingAddress 1: 7
 * - lineItems: 2 + pageInfo 1 + 50 × 5 = 253
 * - refunds: 8 × 79, each: the refund 1, totalRefundedSet 2; transactions 2 + pageInfo 1 + 3 × 3 = 12;
 *   refundLineItems 2 + 1 + 5 × 7 (subtotalSet and totalTaxSet, both sides) = 38; refundShippingLines
 *   2 + 1 + 2 × 4 = 11; orderAdjustments 2 + 1 + 2 × 4 = 11; duties (a list, counted as one duty: the duty,
 *   its amountSet and both sides) 4 = 632
 * about 892 points requested (the unused part is refunded by Shopify: an ordinary order costs a few dozen).
 */
export const RECONCILE_ORDER_QUERY = `query ReconcileOrder($id: ID!) {
  order(id: $id) {
    legacyResourceId test email phone currencyCode sourceName processedAt createdAt cancelledAt displayFinancialStatus
    totalPriceSet { shopMoney { amount currencyCode } }
    totalOutstandingSet { shopMoney { amount currencyCode } }
    billingAddress { countryCodeV2 }
    shippingAddress { countryCodeV2 }
    discountCodes
    lineItems(first: ${RECONCILE_LINE_ITEMS}) { pageInfo { hasNextPage } nodes { name title sku quantity originalUnitPriceSet { shopMoney { amount } } variant { legacyResourceId } product { legacyResourceId } } }
    refunds(first: ${RECONCILE_REFUNDS}) {
      legacyResourceId createdAt processedAt
      totalRefundedSet { shopMoney { amount currencyCode } }
      transactions(first: 3) { pageInfo { hasNextPage } nodes { kind status test gateway amountSet { presentmentMoney { amount currencyCode } } } }
      refundLineItems(first: 5) { pageInfo { hasNextPage } nodes { subtotalSet { ${BOTH} } totalTaxSet { ${BOTH} } } }
      refundShippingLines(first: 2) { pageInfo { hasNextPage } nodes { subtotalAmountSet { ${BOTH} } } }
      orderAdjustments(first: 2) { pageInfo { hasNextPage } nodes { amountSet { ${BOTH} } } }
      duties { amountSet { ${BOTH} } }
    }
  }
}`;

const text = z.string().nullish();
const Money = z.looseObject({ amount: z.string(), currencyCode: text });
const ShopMoney = z.looseObject({ shopMoney: Money });
/** A MoneyBag with both sides (a refund's money sets: their ratio is the rate Shopify applied). */
const BothMoney = z.looseObject({ shopMoney: Money.nullish(), presentmentMoney: Money.nullish() });
const PageInfo = z.looseObject({ hasNextPage: z.boolean().nullish() }).nullish();
const connectionOf = <T extends z.ZodType>(node: T) => z.looseObject({ pageInfo: PageInfo, nodes: z.array(node) }).nullish();
const Legacy = z.looseObject({ legacyResourceId: z.string().regex(/^\d+$/) });
const Address = z.looseObject({ countryCodeV2: text }).nullish();

const GraphqlRefund = Legacy.extend({
  createdAt: text,
  processedAt: text,
  totalRefundedSet: ShopMoney.nullish(),
  transactions: connectionOf(
    z.looseObject({
      kind: text,
      status: text,
      test: z.boolean().nullish(),
      gateway: text,
      amountSet: z.looseObject({ presentmentMoney: Money.nullish() }).nullish(),
    }),
  ),
  refundLineItems: connectionOf(z.looseObject({ subtotalSet: BothMoney.nullish(), totalTaxSet: BothMoney.nullish() })),
  refundShippingLines: connectionOf(z.looseObject({ subtotalAmountSet: BothMoney.nullish() })),
  orderAdjustments: connectionOf(z.looseObject({ amountSet: BothMoney.nullish() })),
  duties: z.array(z.looseObject({ amountSet: BothMoney.nullish() })).nullish(),
});
type GraphqlRefund = z.infer<typeof GraphqlRefund>;

export const GraphqlOrder = Legacy.extend({
  test: z.boolean().nullish(),
  email: text,
  phone: text,
  currencyCode: text,
  sourceName: text,
  processedAt: text,
  createdAt: text,
  cancelledAt: text,
  displayFinancialStatus: text,
  totalPriceSet: ShopMoney.nullish(),
  totalOutstandingSet: ShopMoney.nullish(),
  billingAddress: Address,
  shippingAddress: Address,
  discountCodes: z.array(z.string()).nullish(),
  lineItems: connectionOf(
    z.looseObject({
      name: text,
      title: text,
      sku: text,
      quantity: z.number().nullish(),
      originalUnitPriceSet: ShopMoney.nullish(),
      variant: Legacy.nullish(),
      product: Legacy.nullish(),
    }),
  ),
  refunds: z.array(GraphqlRefund).nullish(),
});
export type GraphqlOrder = z.infer<typeof GraphqlOrder>;

const OrderAnswer = z.looseObject({ order: z.unknown() });

/** Why an answer cannot be read, in a few words (a run failure's reason, a fetch-back's log). */
export const unreadable = (error: z.ZodError) => {
  const issue = error.issues[0];
  return `unreadable order: ${issue?.path.join('.') ?? '?'} ${issue?.message ?? ''}`;
};

/** An order read back: the order (null when Shopify has none with that id), or why its answer cannot be read. */
export type ReadBack = { order: GraphqlOrder | null; unreadable?: undefined } | { order?: undefined; unreadable: string };

/**
 * One order read back (`order(id:)`). A failed call throws ctx.http's VendorApiError (a pull's
 * failure, a webhook's 503).
 */
export async function readOrder(ctx: ShopifyContext, gid: string): Promise<ReadBack> {
  const answer = (await shopifyGraphql(ctx, OrderAnswer, RECONCILE_ORDER_QUERY, { id: gid })).order;
  if (answer == null) return { order: null };
  const parsed = GraphqlOrder.safeParse(answer);
  return parsed.success ? { order: parsed.data } : { unreadable: unreadable(parsed.error) };
}

/** The Order resource (REST, the webhook's body) the GraphQL order stands for: same ids, shop money, the same paid-in-full facts. */
export function asWebhookOrder(order: GraphqlOrder): Record<string, unknown> {
  return {
    id: order.legacyResourceId,
    test: order.test,
    email: order.email,
    phone: order.phone,
    billing_address: order.billingAddress && { country_code: order.billingAddress.countryCodeV2 },
    shipping_address: order.shippingAddress && { country_code: order.shippingAddress.countryCodeV2 },
    currency: order.currencyCode,
    total_price: order.totalPriceSet?.shopMoney.amount,
    // PAID, PARTIALLY_REFUNDED, REFUNDED… are REST's financial_status values in upper case.
    financial_status: order.displayFinancialStatus?.toLowerCase(),
    total_outstanding: order.totalOutstandingSet?.shopMoney.amount,
    source_name: order.sourceName,
    processed_at: order.processedAt,
    created_at: order.createdAt,
    cancelled_at: order.cancelledAt,
    discount_codes: (order.discountCodes ?? []).map((code) => ({ code })),
    line_items: (order.lineItems?.nodes ?? []).map((line) => ({
      name: line.name,
      title: line.title,
      sku: line.sku,
      quantity: line.quantity,
      price: line.originalUnitPriceSet?.shopMoney.amount,
      variant_id: line.variant?.legacyResourceId,
      product_id: line.product?.legacyResourceId,
    })),
  };
}

/** A GraphQL MoneyBag as the REST `*_set` ({shop_money, presentment_money}). */
const restSet = (bag: z.infer<typeof BothMoney> | null | undefined) =>
  bag && {
    shop_money: bag.shopMoney && { amount: bag.shopMoney.amount, currency_code: bag.shopMoney.currencyCode },
    presentment_money: bag.presentmentMoney && { amount: bag.presentmentMoney.amount, currency_code: bag.presentmentMoney.currencyCode },
  };

/** REST's total_duties_set: the duties' money summed, per side (cents, exact). */
function dutiesSet(duties: GraphqlRefund['duties']) {
  if (!duties || duties.length === 0) return undefined;
  const side = (pick: (bag: z.infer<typeof BothMoney>) => z.infer<typeof Money> | null | undefined) => {
    let minor = 0;
    let currency: string | null | undefined;
    for (const duty of duties) {
      const money = duty.amountSet ? pick(duty.amountSet) : null;
      const part = decimalToMinor(money?.amount ?? null);
      if (!money || part === null) return undefined;
      minor += part;
      currency ??= money.currencyCode;
    }
    return { amount: String(fromMinorUnits(minor)), currency_code: currency };
  };
  return { shop_money: side((bag) => bag.shopMoney), presentment_money: side((bag) => bag.presentmentMoney) };
}

/**
 * The Refund resource (refunds/create's body) a GraphQL refund stands for, so the webhook's own
 * refundMoney computes the amount: its transactions in the presentment currency (as REST gives
 * them: `amountSet.presentmentMoney`, kind and status lower-cased, the gateway and test flag as
 * they are), and the money sets REST carries (line subtotals and taxes, shipping lines,
 * adjustments, duties) in both currencies. A refund listed without `transactions` falls back to
 * `totalRefundedSet.shopMoney` as one successful refund transaction.
 *
 * What the read-back cannot see whole is left to the refund's webhook rather than given another
 * amount (one refund id with two amounts is refused by the ledger): a refund with more
 * transactions than are read, or, paid back in another currency than the shop's, with more money
 * sets than are read (its rate would differ by a rounding). The reason is returned instead.
 */
export function asWebhookRefund(order: GraphqlOrder, refund: GraphqlRefund): Record<string, unknown> | string {
  const total = refund.totalRefundedSet?.shopMoney;
  if (refund.transactions?.pageInfo?.hasNextPage) return `refund ${refund.legacyResourceId} has more transactions than are read`;
  const transactions = refund.transactions
    ? refund.transactions.nodes.map((t) => ({
        kind: t.kind?.toLowerCase(),
        status: t.status?.toLowerCase(),
        gateway: t.gateway,
        test: t.test ?? order.test,
        amount: t.amountSet?.presentmentMoney?.amount,
        currency: t.amountSet?.presentmentMoney?.currencyCode,
      }))
    : total
      ? [{ kind: 'refund', status: 'success', amount: total.amount, currency: total.currencyCode, test: order.test }]
      : [];
  const shop = order.currencyCode?.toUpperCase();
  const foreign = transactions.some((t) => t.currency && t.currency.toUpperCase() !== shop);
  const cut = [refund.refundLineItems, refund.refundShippingLines, refund.orderAdjustments].some((c) => c?.pageInfo?.hasNextPage);
  if (foreign && cut) return `refund ${refund.legacyResourceId} in the presentment currency has more lines or adjustments than are read`;
  return {
    id: refund.legacyResourceId,
    order_id: order.legacyResourceId,
    created_at: refund.createdAt,
    processed_at: refund.processedAt,
    transactions,
    refund_line_items: (refund.refundLineItems?.nodes ?? []).map((line) => ({
      subtotal_set: restSet(line.subtotalSet),
      total_tax_set: restSet(line.totalTaxSet),
    })),
    refund_shipping_lines: (refund.refundShippingLines?.nodes ?? []).map((line) => ({
      subtotal_amount_set: restSet(line.subtotalAmountSet),
    })),
    order_adjustments: (refund.orderAdjustments?.nodes ?? []).map((adjustment) => ({ amount_set: restSet(adjustment.amountSet) })),
    total_duties_set: dutiesSet(refund.duties),
  };
}

/**
 * Every refund of an order read back, mapped by refunds/create's own code (same refund ids, same
 * amounts: what a webhook delivered is a duplicate in the ledger, what it missed or what was still
 * pending then is reversed now), each with its own event id under `delivery` (`{topic}:{event}:{refund id}`).
 * Test orders give nothing. Notes say what was not reversed and why; `unread` names the refunds
 * the read-back cannot see whole (left to their refunds/create).
 */
export function orderRefundEnvelopes(
  order: GraphqlOrder,
  delivery: Omit<ShopifyUnit, 'body'>,
  storeId: string,
  now: Date,
): { envelopes: FeaturedEnvelope[]; notes: string[]; unread: string[] } {
  const envelopes: FeaturedEnvelope[] = [];
  const notes: string[] = [];
  const unread: string[] = [];
  if (order.test === true)
    return { envelopes, notes: [`Shopify test order ${order.legacyResourceId} (test: true): nothing to do`], unread };
  for (const refund of order.refunds ?? []) {
    const body = asWebhookRefund(order, refund);
    if (typeof body === 'string') {
      unread.push(body);
      notes.push(`${body}: left to its refunds/create`);
      continue;
    }
    const mapped = refundEnvelopes({ ...delivery, body }, storeId, now);
    envelopes.push(...mapped.envelopes);
    if (mapped.note) notes.push(mapped.note);
  }
  return { envelopes, notes, unread };
}
