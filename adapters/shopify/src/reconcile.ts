import type { FeaturedEnvelope, ReconcilePage, ReconcileWindow } from '@loyalty-gateway/core';
import { z } from 'zod';
import { shopifyGraphql, type ShopifyContext } from './api.js';
import { orderEnvelopes } from './map-order.js';
import { RECONCILE_LINE_ITEMS, RECONCILE_REFUNDS, asWebhookOrder, orderRefundEnvelopes, readOrder, unreadable } from './order-read-back.js';
import type { ShopifyUnit } from './auth.js';

export { RECONCILE_LINE_ITEMS, RECONCILE_ORDER_QUERY, RECONCILE_REFUNDS } from './order-read-back.js';

/** Every 15 minutes: Shopify retries a failed delivery for 4 hours, then deletes the subscription. */
export const RECONCILE_SCHEDULE = '*/15 * * * *';
export const RECONCILE_PAGE_SIZE = 50;

/**
 * Shopify refuses a query whose requested cost is over 1,000 points before running it, and a
 * connection costs its `first` times its node: 50 orders each with their lines and refunds cannot
 * be one query (50 × 250 lines alone is 12,500). So a page is listed cheaply (about 53 points: the
 * ids and the test flag), and each order is read back alone with the fields the webhook's own
 * mapping reads (requested cost about 892, counted in order-read-back.ts; Shopify refunds the
 * unused part, so an ordinary order costs a few dozen). Needs read_orders.
 */
export const RECONCILE_QUERY = `query ReconcileOrders($first: Int!, $after: String, $query: String!) {
  orders(first: $first, after: $after, query: $query, sortKey: UPDATED_AT) {
    pageInfo { hasNextPage endCursor }
    nodes { id legacyResourceId test }
  }
}`;

const text = z.string().nullish();
const OrdersPage = z.looseObject({
  orders: z.looseObject({ pageInfo: z.looseObject({ hasNextPage: z.boolean(), endCursor: text }), nodes: z.array(z.unknown()) }),
});
const ListedOrder = z.looseObject({ legacyResourceId: z.string().regex(/^\d+$/), id: text, test: z.boolean().nullish() });

const unitOf = (topic: string, orderId: string, body: unknown): ShopifyUnit => ({
  topic,
  eventId: `reconcile:${orderId}`,
  webhookId: null,
  triggeredAt: null,
  body,
});

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
    let read;
    try {
      read = await readOrder(ctx, listed.data.id || `gid://shopify/Order/${legacyId}`);
    } catch (error) {
      failures.push({ id: legacyId, reason: `order not read: ${(error as Error).message}`.slice(0, 500) });
      continue;
    }
    if (read.unreadable !== undefined) {
      failures.push({ id: legacyId, reason: read.unreadable });
      continue;
    }
    const order = read.order;
    if (order === null) {
      failures.push({ id: legacyId, reason: 'order not found when read back (deleted since it was listed?)' });
      continue;
    }
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
    // orders/paid's own rule decides (paid in full: financial status and nothing outstanding).
    envelopes.push(...orderEnvelopes('sale.completed', unitOf('orders/paid', legacyId, asWebhookOrder(order)), ctx.storeId, now).envelopes);
    if (order.test === true) continue;
    const refunds = orderRefundEnvelopes(order, unitOf('refunds/create', legacyId, null), ctx.storeId, now);
    envelopes.push(...refunds.envelopes);
    for (const why of refunds.unread) {
      ctx.logger.warn({ store: ctx.storeId, order: legacyId, why }, 'reconciliation: a refund it cannot read whole is left to its webhook');
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
