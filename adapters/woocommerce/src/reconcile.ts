import type { ReconcilePage, ReconcileWindow } from '@loyalty-gateway/core';
import { z } from 'zod';
import { listPage } from './api.js';
import type { WooContext } from './config.js';
import { orderEnvelopes } from './map.js';
import { WooOrder } from './native.js';

/** Every 15 minutes: WooCommerce does not retry a failed delivery. */
export const RECONCILE_SCHEDULE = '*/15 * * * *';

/**
 * Reconciliation: the orders modified in the window (`modified_after` / `modified_before`, GMT,
 * oldest first), each mapped with the webhook's own `orderEnvelopes`: the same order and refund ids,
 * so what a webhook delivered is a duplicate, what WooCommerce never sent (it does not retry) earns now.
 */
export async function pullOrders(ctx: WooContext, window: ReconcileWindow, cursor: string | null): Promise<ReconcilePage> {
  const { response, next } = await listPage(ctx, 'orders', cursor, {
    modified_after: window.since.toISOString(),
    modified_before: window.until.toISOString(),
    dates_are_gmt: 'true',
    orderby: 'id',
    order: 'asc',
  });
  const orders = z.array(z.unknown()).parse(response.body);
  const envelopes: ReconcilePage['envelopes'] = [];
  const failures: NonNullable<ReconcilePage['failures']> = [];
  for (const order of orders) {
    const readable = WooOrder.safeParse(order);
    if (readable.success) envelopes.push(...orderEnvelopes(readable.data, ctx.storeId).envelopes);
    else
      failures.push({
        id: String((order as { id?: unknown } | null)?.id ?? '?').slice(0, 64),
        reason: `unreadable order: ${readable.error.issues[0]?.path.join('.') ?? '?'} ${readable.error.issues[0]?.message ?? ''}`,
      });
  }
  return { envelopes, failures, examined: orders.length, cursor: next };
}
