import type { Envelope, ReconcilePage, ReconcileWindow } from '@loyalty-gateway/core';
import { z } from 'zod';
import { shopifyGraphql, type ShopifyContext } from './graphql.js';
import { orderEnvelopes } from './map-order.js';
import { refundEnvelopes } from './map-refund.js';
import type { ShopifyUnit } from './webhook-unit.js';

/** Every 15 minutes: Shopify retries a failed delivery for 4 hours, then deletes the subscription. */
export const RECONCILE_SCHEDULE = '*/15 * * * *';
export const RECONCILE_PAGE_SIZE = 50;

/** The fields the webhook's own mapping reads, in Admin GraphQL terms (needs read_orders). */
export const RECONCILE_QUERY = `query ReconcileOrders($first: Int!, $after: String, $query: String!) {
  orders(first: $first, after: $after, query: $query, sortKey: UPDATED_AT) {
    pageInfo { hasNextPage endCursor }
    nodes {
      legacyResourceId test email phone currencyCode sourceName processedAt createdAt cancelledAt displayFinancialStatus
      totalPriceSet { shopMoney { amount currencyCode } }
      customer { email phone }
      discountCodes
      lineItems(first: 250) { nodes { name title sku quantity originalUnitPriceSet { shopMoney { amount } } variant { legacyResourceId } product { legacyResourceId } } }
      refunds(first: 50) {
        legacyResourceId createdAt
        totalRefundedSet { shopMoney { amount currencyCode } }
        transactions(first: 50) { nodes { kind status test amountSet { presentmentMoney { amount currencyCode } } } }
        refundLineItems(first: 250) { nodes { subtotalSet { shopMoney { amount currencyCode } presentmentMoney { amount currencyCode } } } }
        orderAdjustments(first: 50) { nodes { amountSet { shopMoney { amount currencyCode } presentmentMoney { amount currencyCode } } } }
      }
    }
  }
}`;

const text = z.string().nullish();
const Money = z.looseObject({ amount: z.string(), currencyCode: text });
const ShopMoney = z.looseObject({ shopMoney: Money });
/** A MoneyBag with both sides (a refund's money sets: their ratio is the rate Shopify applied). */
const BothMoney = z.looseObject({ shopMoney: Money.nullish(), presentmentMoney: Money.nullish() });
const nodesOf = <T extends z.ZodType>(node: T) => z.looseObject({ nodes: z.array(node) }).nullish();
const Legacy = z.looseObject({ legacyResourceId: z.string().regex(/^\d+$/) });
export const GraphqlOrder = Legacy.extend({
  test: z.boolean().nullish(), email: text, phone: text, currencyCode: text, sourceName: text, processedAt: text, createdAt: text, cancelledAt: text,
  displayFinancialStatus: text,
  totalPriceSet: ShopMoney.nullish(),
  customer: z.looseObject({ email: text, phone: text }).nullish(),
  discountCodes: z.array(z.string()).nullish(),
  lineItems: z.looseObject({ nodes: z.array(z.looseObject({
    name: text, title: text, sku: text, quantity: z.number().nullish(), originalUnitPriceSet: ShopMoney.nullish(), variant: Legacy.nullish(), product: Legacy.nullish(),
  })) }).nullish(),
  refunds: z.array(Legacy.extend({
    createdAt: text, totalRefundedSet: ShopMoney.nullish(),
    transactions: nodesOf(z.looseObject({ kind: text, status: text, test: z.boolean().nullish(), amountSet: z.looseObject({ presentmentMoney: Money.nullish() }).nullish() })),
    refundLineItems: nodesOf(z.looseObject({ subtotalSet: BothMoney.nullish() })),
    orderAdjustments: nodesOf(z.looseObject({ amountSet: BothMoney.nullish() })),
  })).nullish(),
});
export type GraphqlOrder = z.infer<typeof GraphqlOrder>;
const OrdersPage = z.looseObject({
  orders: z.looseObject({ pageInfo: z.looseObject({ hasNextPage: z.boolean(), endCursor: text }), nodes: z.array(z.unknown()) }),
});

/** A paid order is what orders/paid announced: earned once, whatever happened to it since. */
const PAID = new Set(['PAID', 'PARTIALLY_REFUNDED', 'REFUNDED']);

/** The Order resource (REST, the webhook's body) the GraphQL order stands for: same ids, shop money. */
export function asWebhookOrder(order: GraphqlOrder): Record<string, unknown> {
  return {
    id: order.legacyResourceId, test: order.test, email: order.email, phone: order.phone, customer: order.customer,
    currency: order.currencyCode, total_price: order.totalPriceSet?.shopMoney.amount, source_name: order.sourceName,
    processed_at: order.processedAt, created_at: order.createdAt, cancelled_at: order.cancelledAt,
    discount_codes: (order.discountCodes ?? []).map((code) => ({ code })),
    line_items: (order.lineItems?.nodes ?? []).map((line) => ({
      name: line.name, title: line.title, sku: line.sku, quantity: line.quantity, price: line.originalUnitPriceSet?.shopMoney.amount,
      variant_id: line.variant?.legacyResourceId, product_id: line.product?.legacyResourceId,
    })),
  };
}

/** A GraphQL MoneyBag as the REST `*_set` ({shop_money, presentment_money}). */
const restSet = (bag: z.infer<typeof BothMoney> | null | undefined) => bag && {
  shop_money: bag.shopMoney && { amount: bag.shopMoney.amount, currency_code: bag.shopMoney.currencyCode },
  presentment_money: bag.presentmentMoney && { amount: bag.presentmentMoney.amount, currency_code: bag.presentmentMoney.currencyCode },
};

/**
 * The Refund resource (refunds/create's body) a GraphQL refund stands for, so the webhook's own
 * refundMoney computes the amount: its transactions in the presentment currency (as REST gives
 * them: `amountSet.presentmentMoney`, kind and status lower-cased), its line and adjustment money
 * sets in both currencies (the shop value of a presentment refund is taken at their ratio). A
 * refund listed without `transactions` falls back to `totalRefundedSet.shopMoney` as one
 * successful refund transaction.
 */
export function asWebhookRefund(order: GraphqlOrder, refund: NonNullable<GraphqlOrder['refunds']>[number]): Record<string, unknown> {
  const total = refund.totalRefundedSet?.shopMoney;
  const transactions = refund.transactions
    ? refund.transactions.nodes.map((t) => ({
      kind: t.kind?.toLowerCase(), status: t.status?.toLowerCase(), test: t.test ?? order.test,
      amount: t.amountSet?.presentmentMoney?.amount, currency: t.amountSet?.presentmentMoney?.currencyCode,
    }))
    : total ? [{ kind: 'refund', status: 'success', amount: total.amount, currency: total.currencyCode, test: order.test }] : [];
  return {
    id: refund.legacyResourceId, order_id: order.legacyResourceId, created_at: refund.createdAt, transactions,
    refund_line_items: (refund.refundLineItems?.nodes ?? []).map((line) => ({ subtotal_set: restSet(line.subtotalSet) })),
    order_adjustments: (refund.orderAdjustments?.nodes ?? []).map((adjustment) => ({ amount_set: restSet(adjustment.amountSet) })),
  };
}

const unitOf = (topic: string, id: string, body: unknown): ShopifyUnit => ({ topic, eventId: `reconcile:${id}`, webhookId: null, triggeredAt: null, body });

/**
 * Shopify's reconciliation pull: the shop's orders updated in the window (Admin GraphQL `orders`,
 * `updated_at` search, cursor paging), each mapped by the webhook's own code: a paid order as its
 * orders/paid, each refund as its refunds/create, a cancelled order as its orders/cancelled, with the REST ids (`legacyResourceId`) the
 * webhooks carry, so what a webhook delivered is a duplicate in the ledger.
 */
export async function pullOrders(ctx: ShopifyContext, window: ReconcileWindow, cursor: string | null): Promise<ReconcilePage> {
  const query = `updated_at:>='${window.since.toISOString()}' AND updated_at:<'${window.until.toISOString()}'`;
  const data = await shopifyGraphql(ctx, OrdersPage, RECONCILE_QUERY, { first: RECONCILE_PAGE_SIZE, after: cursor, query });
  const envelopes: Envelope[] = [];
  const failures: NonNullable<ReconcilePage['failures']> = [];
  const now = ctx.now();
  for (const node of data.orders.nodes) {
    const parsed = GraphqlOrder.safeParse(node);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      failures.push({ id: String((node as { legacyResourceId?: unknown } | null)?.legacyResourceId ?? '?').slice(0, 64), reason: `unreadable order: ${issue?.path.join('.') ?? '?'} ${issue?.message ?? ''}` });
      continue;
    }
    const order = parsed.data;
    if (PAID.has(order.displayFinancialStatus ?? '')) envelopes.push(...orderEnvelopes('sale.completed', unitOf('orders/paid', order.legacyResourceId, asWebhookOrder(order)), ctx.storeId, now).envelopes);
    if (order.test === true) continue;
    for (const refund of order.refunds ?? []) {
      envelopes.push(...refundEnvelopes(unitOf('refunds/create', refund.legacyResourceId, asWebhookRefund(order, refund)), ctx.storeId, now).envelopes);
    }
    // orders/cancelled: sale.voided, as the webhook gives it (the ledger accepts and ignores it).
    if (order.cancelledAt) envelopes.push(...orderEnvelopes('sale.voided', unitOf('orders/cancelled', order.legacyResourceId, asWebhookOrder(order)), ctx.storeId, now).envelopes);
  }
  const { hasNextPage, endCursor } = data.orders.pageInfo;
  return { envelopes, failures, examined: data.orders.nodes.length, cursor: hasNextPage && endCursor ? endCursor : null };
}
