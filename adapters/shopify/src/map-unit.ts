import { VendorApiError, type MapResult } from '@loyalty-gateway/core';
import type { ShopifyContext } from './api.js';
import { adminApiBaseUrl } from './config.js';
import { toEnvelopes } from './map.js';
import { ShopifyOrderTransaction } from './native.js';
import { orderRefundEnvelopes, readOrder } from './order-read-back.js';
import type { ShopifyUnit } from './auth.js';

export const ORDER_TRANSACTIONS_CREATE = 'order_transactions/create';

/** One delivery: order_transactions/create reads its order back; every other topic is mapped from its body alone. */
export function mapUnit(unit: ShopifyUnit, ctx: ShopifyContext): Promise<MapResult> | MapResult {
  return unit.topic === ORDER_TRANSACTIONS_CREATE ? settledRefunds(unit, ctx) : toEnvelopes(unit, ctx.storeId, ctx.now());
}

/**
 * order_transactions/create: Shopify sends it when a transaction is created "or when its status is
 * updated" to success, failure or error, which is how a refund that was still pending when
 * refunds/create came settles (no other refunds/create follows). The Transaction names its order,
 * not its refund, so on a refund transaction the order is read back (the reconciliation's own
 * `order(id:)` query, the connection's access token) and its refunds mapped by refunds/create's
 * code: the one that settled is reversed now, with its final amount; the others are duplicates.
 * Other kinds (sale, capture, authorization, void) move no refund: orders/paid earns the order
 * once it is paid in full. A failed read is a VendorApiError: 503, Shopify redelivers.
 */
async function settledRefunds(unit: ShopifyUnit, ctx: ShopifyContext): Promise<MapResult> {
  const parsed = ShopifyOrderTransaction.safeParse(unit.body);
  if (!parsed.success) {
    return { envelopes: [], note: `unreadable ${unit.topic} payload (${parsed.error.issues[0]?.path.join('.') ?? '?'}): nothing to do` };
  }
  const transaction = parsed.data;
  const kind = transaction.kind?.trim().toLowerCase() ?? '';
  const what = `${kind || 'untyped'} transaction ${transaction.id} (${transaction.status ?? 'no status'}) of order ${transaction.order_id}`;
  if (kind !== 'refund') {
    return { envelopes: [], note: `${what}: not a refund (orders/paid earns the order once it is paid in full): nothing to do` };
  }
  if (transaction.test === true) return { envelopes: [], note: `${what} is test-mode: nothing to do` };
  if (!ctx.credentials.accessToken) {
    // Not a 503: no redelivery can bring a token. The refund still reverses through refunds/create when it was settled then.
    return {
      envelopes: [],
      note: `${what}: the connection has no accessToken (read_orders) to read its order back: its refund is not re-read`,
    };
  }
  const read = await readOrder(ctx, `gid://shopify/Order/${transaction.order_id}`);
  if (read.unreadable !== undefined) {
    throw new VendorApiError(
      200,
      `${adminApiBaseUrl(ctx.settings, ctx.storeId)}/graphql.json`,
      `order ${transaction.order_id}: ${read.unreadable}`,
    );
  }
  const order = read.order;
  if (order === null) return { envelopes: [], note: `${what}: Shopify has no such order (deleted?): nothing to do` };
  const now = ctx.now();
  const { topic, eventId, webhookId, triggeredAt } = unit;
  const mapped = orderRefundEnvelopes(order, { topic, eventId, webhookId, triggeredAt }, ctx.storeId, now);
  const note =
    mapped.notes.length > 0
      ? `order ${transaction.order_id} read back after ${what}: ${mapped.notes.join('; ')}`
      : mapped.envelopes.length === 0
        ? `order ${transaction.order_id} read back after ${what}: it lists no refund that moved money`
        : undefined;
  return { envelopes: mapped.envelopes, ...(note ? { note } : {}) };
}
