import type { ReconcilePage, ReconcileWindow } from '@loyalty-gateway/core';
import { z } from 'zod';
import { listPage } from './api.js';
import type { WooContext } from './config.js';
import { orderEnvelopes } from './map.js';
import { WooOrder } from './native.js';

/** Every 15 minutes: WooCommerce does not retry a failed delivery. */
export const RECONCILE_SCHEDULE = '*/15 * * * *';
/**
 * Orders with a reversal recorded in the ledger within this many days are read back on every run
 * (the gateway passes them in `window.revisit`): a refund deleted in that time is seen even though
 * WooCommerce neither marks the order modified nor (before 11.2) sends order.updated for it.
 */
export const REVISIT_DAYS = 30;
/** Ids per `include=` read: one page of the listing (per_page is 100). */
const INCLUDE_MAX = 100;
/** A WooCommerce order id: a positive integer (a post id, or an HPOS order id). */
const ORDER_ID = /^[1-9]\d{0,18}$/;

const idOf = (order: unknown): string => String((order as { id?: unknown } | null)?.id ?? '?').slice(0, 64);

/**
 * The orders of `window.revisit` not already on the listed page, read back with `include=<ids>`
 * (at most 100 ids per call): WooCommerce removes a deleted refund from `refunds[]` without
 * marking the order modified (nor, before 11.2 at least, sending order.updated), so only reading
 * the order again shows that the refund is gone.
 */
async function readBack(ctx: WooContext, revisit: readonly string[], listed: unknown[]): Promise<unknown[]> {
  const seen = new Set(listed.map(idOf));
  const ids = [...new Set(revisit)].filter((id) => ORDER_ID.test(id) && !seen.has(id));
  const orders: unknown[] = [];
  for (let i = 0; i < ids.length; i += INCLUDE_MAX) {
    const { response } = await listPage(ctx, 'orders', null, {
      include: ids.slice(i, i + INCLUDE_MAX).join(','),
      orderby: 'id',
      order: 'asc',
    });
    orders.push(...z.array(z.unknown()).parse(response.body));
  }
  return orders;
}

/**
 * Reconciliation: the orders modified in the window (`modified_after` / `modified_before`, GMT,
 * oldest first) and, on the first page, the orders the ledger holds recent reversals of
 * (`window.revisit`, whatever their modification time), each mapped with the webhook's own
 * `orderEnvelopes`: the same order and refund ids, so what a webhook delivered is a duplicate,
 * what WooCommerce never sent (it does not retry) earns now, and a refund deleted since is given back.
 */
export async function pullOrders(ctx: WooContext, window: ReconcileWindow, cursor: string | null): Promise<ReconcilePage> {
  const { response, next } = await listPage(ctx, 'orders', cursor, {
    modified_after: window.since.toISOString(),
    modified_before: window.until.toISOString(),
    dates_are_gmt: 'true',
    orderby: 'id',
    order: 'asc',
  });
  const listed = z.array(z.unknown()).parse(response.body);
  const orders = cursor === null && window.revisit?.length ? [...listed, ...(await readBack(ctx, window.revisit, listed))] : listed;
  const envelopes: ReconcilePage['envelopes'] = [];
  const failures: NonNullable<ReconcilePage['failures']> = [];
  for (const order of orders) {
    const readable = WooOrder.safeParse(order);
    if (readable.success) envelopes.push(...orderEnvelopes(readable.data, ctx.storeId).envelopes);
    else
      failures.push({
        id: idOf(order),
        reason: `unreadable order: ${readable.error.issues[0]?.path.join('.') ?? '?'} ${readable.error.issues[0]?.message ?? ''}`,
      });
  }
  return { envelopes, failures, examined: orders.length, cursor: next };
}
