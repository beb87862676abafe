import type { FeaturedEnvelope, ReconcilePage, ReconcileWindow } from '@loyalty-gateway/core';
import { z } from 'zod';
import { shopifyGraphql, type ShopifyContext } from './api.js';
import { orderEnvelopes } from './map-order.js';
import { refundEnvelopes } from './map-refund.js';
import type { ShopifyUnit } from './webhook-unit.js';

/** Every 15 minutes: Shopify retries a failed delivery for 4 hours, then deletes the subscription. */
export const RECONCILE_SCHEDULE = '*/15 * * * *';
export const RECONCILE_PAGE_SIZE = 50;

/**
 * Shopify refuses a query whose requested cost is over 1,000 points before running it, and a
 * connection costs its `first` times its node: 50 orders each with their lines and refunds cannot
 * be one query (50 × 250 lines alone is 12,500). So a page is listed cheaply (about 53 points: the
 * ids and the test flag), and each order is read back alone with the fields the webhook's own
 * mapping reads (requested cost about 890, counted below; Shopify refunds the unused part, so an
 * ordinary order costs a few dozen). Needs read_orders.
 */
export const RECONCILE_QUERY = `query ReconcileOrders($first: Int!, $after: String, $query: String!) {
  orders(first: $first, after: $after, query: $query, sortKey: UPDATED_AT) {
    pageInfo { hasNextPage endCursor }
    nodes { id legacyResourceId test }
  }
}`;

/** Lines read per order (2 + 75 × 5 points: the line, its price set and money, variant, product). */
export const RECONCILE_LINE_ITEMS = 75;
/** Refunds read per order (10 × 50 points: the refund, its total, 3 transactions, 5 lines, 3 adjustments). */
export const RECONCILE_REFUNDS = 10;

/**
 * One order, as the webhooks' mapping needs it. The order's own `email` / `phone`, not its `customer`
 * (reading the Customer object can need read_customers; the webhook mapping prefers the order's own).
 * (about 4 + 377 + 500 + pageInfo = 890 points requested)
 */
export const RECONCILE_ORDER_QUERY = `query ReconcileOrder($id: ID!) {
  order(id: $id) {
    legacyResourceId test email phone currencyCode sourceName processedAt createdAt cancelledAt displayFinancialStatus
    totalPriceSet { shopMoney { amount currencyCode } }
    discountCodes
    lineItems(first: ${RECONCILE_LINE_ITEMS}) { pageInfo { hasNextPage } nodes { name title sku quantity originalUnitPriceSet { shopMoney { amount } } variant { legacyResourceId } product { legacyResourceId } } }
    refunds(first: ${RECONCILE_REFUNDS}) {
      legacyResourceId createdAt
      totalRefundedSet { shopMoney { amount currencyCode } }
      transactions(first: 3) { nodes { kind status test amountSet { presentmentMoney { amount currencyCode } } } }
      refundLineItems(first: 5) { nodes { subtotalSet { shopMoney { amount currencyCode } presentmentMoney { amount currencyCode } } } }
      orderAdjustments(first: 3) { nodes { amountSet { shopMoney { amount currencyCode } presentmentMoney { amount currencyCode } } } }
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
  discountCodes: z.array(z.string()).nullish(),
  lineItems: z
    .looseObject({
      pageInfo: z.looseObject({ hasNextPage: z.boolean().nullish() }).nullish(),
      nodes: z.array(
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
    })
    .nullish(),
  refunds: z
    .array(
      Legacy.extend({
        createdAt: text,
        totalRefundedSet: ShopMoney.nullish(),
        transactions: nodesOf(
          z.looseObject({
            kind: text,
            status: text,
            test: z.boolean().nullish(),
            amountSet: z.looseObject({ presentmentMoney: Money.nullish() }).nullish(),
          }),
        ),
        refundLineItems: nodesOf(z.looseObject({ subtotalSet: BothMoney.nullish() })),
        orderAdjustments: nodesOf(z.looseObject({ amountSet: BothMoney.nullish() })),
      }),
    )
    .nullish(),
});
export type GraphqlOrder = z.infer<typeof GraphqlOrder>;
const OrdersPage = z.looseObject({
  orders: z.looseObject({ pageInfo: z.looseObject({ hasNextPage: z.boolean(), endCursor: text }), nodes: z.array(z.unknown()) }),
});
const ListedOrder = Legacy.extend({ id: text, test: z.boolean().nullish() });
const OrderAnswer = z.looseObject({ order: z.unknown() });

/** A paid order is what orders/paid announced: earned once, whatever happened to it since. */
const PAID = new Set(['PAID', 'PARTIALLY_REFUNDED', 'REFUNDED']);

/** The Order resource (REST, the webhook's body) the GraphQL order stands for: same ids, shop money. */
export function asWebhookOrder(order: GraphqlOrder): Record<string, unknown> {
  return {
    id: order.legacyResourceId,
    test: order.test,
    email: order.email,
    phone: order.phone,
    currency: order.currencyCode,
    total_price: order.totalPriceSet?.shopMoney.amount,
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
        kind: t.kind?.toLowerCase(),
        status: t.status?.toLowerCase(),
        test: t.test ?? order.test,
        amount: t.amountSet?.presentmentMoney?.amount,
        currency: t.amountSet?.presentmentMoney?.currencyCode,
      }))
    : total
      ? [{ kind: 'refund', status: 'success', amount: total.amount, currency: total.currencyCode, test: order.test }]
      : [];
  return {
    id: refund.legacyResourceId,
    order_id: order.legacyResourceId,
    created_at: refund.createdAt,
    transactions,
    refund_line_items: (refund.refundLineItems?.nodes ?? []).map((line) => ({ subtotal_set: restSet(line.subtotalSet) })),
    order_adjustments: (refund.orderAdjustments?.nodes ?? []).map((adjustment) => ({ amount_set: restSet(adjustment.amountSet) })),
  };
}

const unitOf = (topic: string, id: string, body: unknown): ShopifyUnit => ({
  topic,
  eventId: `reconcile:${id}`,
  webhookId: null,
  triggeredAt: null,
  body,
});

/** Why an entry cannot be read, for `failures`. */
const unreadable = (error: z.ZodError) => {
  const issue = error.issues[0];
  return `unreadable order: ${issue?.path.join('.') ?? '?'} ${issue?.message ?? ''}`;
};

/**
 * Shopify's reconciliation pull: the shop's orders updated in the window (Admin GraphQL `orders`,
 * `updated_at` search, cursor paging), each read back (`order(id:)`) and mapped by the webhook's
 * own code: a paid order as its orders/paid, each refund as its refunds/create, a cancelled order
 * as its orders/cancelled, with the REST ids (`legacyResourceId`) the webhooks carry, so what a
 * webhook delivered is a duplicate in the ledger. Test orders are not read back. An order that
 * cannot be listed, read or found is a failure (the run fails, the window is pulled again).
 */
export async function pullOrders(ctx: ShopifyContext, window: ReconcileWindow, cursor: string | null): Promise<ReconcilePage> {
  const query = `updated_at:>='${window.since.toISOString()}' AND updated_at:<'${window.until.toISOString()}'`;
  const data = await shopifyGraphql(ctx, OrdersPage, RECONCILE_QUERY, { first: RECONCILE_PAGE_SIZE, after: cursor, query });
  const envelopes: FeaturedEnvelope[] = [];
  const failures: NonNullable<ReconcilePage['failures']> = [];
  const now = ctx.now();
  for (const node of data.orders.nodes) {
    const listed = ListedOrder.safeParse(node);
    if (!listed.success) {
      const raw = node as { legacyResourceId?: unknown; id?: unknown } | null;
      failures.push({ id: String(raw?.legacyResourceId ?? raw?.id ?? '?').slice(0, 64), reason: unreadable(listed.error) });
      continue;
    }
    if (listed.data.test === true) continue;
    const legacyId = listed.data.legacyResourceId;
    let answer: unknown;
    try {
      answer = (await shopifyGraphql(ctx, OrderAnswer, RECONCILE_ORDER_QUERY, { id: listed.data.id || `gid://shopify/Order/${legacyId}` }))
        .order;
    } catch (error) {
      failures.push({ id: legacyId, reason: `order not read: ${(error as Error).message}`.slice(0, 500) });
      continue;
    }
    if (answer == null) {
      failures.push({ id: legacyId, reason: 'order not found when read back (deleted since it was listed?)' });
      continue;
    }
    const parsed = GraphqlOrder.safeParse(answer);
    if (!parsed.success) {
      failures.push({ id: legacyId, reason: unreadable(parsed.error) });
      continue;
    }
    const order = parsed.data;
    if (order.lineItems?.pageInfo?.hasNextPage) {
      ctx.logger.warn(
        { store: ctx.storeId, order: legacyId, read: RECONCILE_LINE_ITEMS },
        'reconciliation: order has more lines than are read; its items are incomplete (the total is not)',
      );
    }
    if ((order.refunds?.length ?? 0) >= RECONCILE_REFUNDS) {
      ctx.logger.warn(
        { store: ctx.storeId, order: legacyId, read: RECONCILE_REFUNDS },
        'reconciliation: order may have more refunds than are read; later ones are left to their webhooks',
      );
    }
    if (PAID.has(order.displayFinancialStatus ?? ''))
      envelopes.push(
        ...orderEnvelopes('sale.completed', unitOf('orders/paid', legacyId, asWebhookOrder(order)), ctx.storeId, now).envelopes,
      );
    if (order.test === true) continue;
    for (const refund of order.refunds ?? []) {
      envelopes.push(
        ...refundEnvelopes(unitOf('refunds/create', refund.legacyResourceId, asWebhookRefund(order, refund)), ctx.storeId, now).envelopes,
      );
    }
    // orders/cancelled: sale.voided, as the webhook gives it (the ledger accepts and ignores it).
    if (order.cancelledAt)
      envelopes.push(
        ...orderEnvelopes('sale.voided', unitOf('orders/cancelled', legacyId, asWebhookOrder(order)), ctx.storeId, now).envelopes,
      );
  }
  const { hasNextPage, endCursor } = data.orders.pageInfo;
  return { envelopes, failures, examined: data.orders.nodes.length, cursor: hasNextPage && endCursor ? endCursor : null };
}
