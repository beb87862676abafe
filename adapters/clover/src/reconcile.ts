import { offsetPage, type ReconcilePage, type ReconcileWindow } from '@loyalty-gateway/core';
import { z } from 'zod';
import { bearer, isCloverId, merchantUrl, type CloverContext } from './config.js';
import { fetchOrder } from './api.js';
import { toEnvelopes } from './map.js';

/** Orders per listing page (Clover allows up to 1000; each listed order is then fetched back). */
export const RECONCILE_PAGE_SIZE = 100;
/** Every 15 minutes: Clover does not guarantee when, or if, a notification arrives. */
export const RECONCILE_SCHEDULE = '*/15 * * * *';

const OrderList = z
  .object({ elements: z.array(z.object({ id: z.string(), modifiedTime: z.number().int().nullish() }).loose()).default([]) })
  .loose();

/**
 * Clover's reconciliation pull: the merchant's orders modified in the window
 * (`GET /v3/merchants/{mId}/orders?filter=modifiedTime>=…&filter=modifiedTime<…`, offset paging),
 * each fetched back and mapped exactly as a webhook notification about it would be (api.ts,
 * map.ts): the same transaction and refund ids, so what the webhook delivered is a duplicate and
 * what it missed is earned now. Open orders map to nothing, as on the webhook.
 */
export async function pullOrders(ctx: CloverContext, window: ReconcileWindow, cursor: string | null): Promise<ReconcilePage> {
  const merchantId = ctx.storeId;
  const { offset, limit, next } = offsetPage(cursor, RECONCILE_PAGE_SIZE);
  const url = merchantUrl(ctx, merchantId, '/orders');
  const listing = OrderList.parse(
    await ctx.http.json(
      `${url}?filter=${encodeURIComponent(`modifiedTime>=${window.since.getTime()}`)}&filter=${encodeURIComponent(`modifiedTime<${window.until.getTime()}`)}`,
      {
        headers: bearer(ctx),
        query: { limit, offset, orderBy: 'modifiedTime ASC' },
      },
    ),
  );
  const envelopes: ReconcilePage['envelopes'] = [];
  const failures: NonNullable<ReconcilePage['failures']> = [];
  for (const listed of listing.elements) {
    if (!isCloverId(listed.id)) {
      failures.push({ id: listed.id.slice(0, 64), reason: 'not a Clover id: never fetched' });
      continue;
    }
    const order = await fetchOrder(ctx, merchantId, listed.id);
    if (order === null) continue; // deleted since it was listed
    const unit = { merchantId, objectId: `O:${listed.id}`, type: 'UPDATE', ts: listed.modifiedTime ?? window.until.getTime() };
    envelopes.push(...toEnvelopes(order, unit).envelopes);
  }
  return { envelopes, failures, examined: listing.elements.length, cursor: next(listing.elements.length) };
}
