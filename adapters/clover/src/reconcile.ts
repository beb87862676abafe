import { offsetPage, type ReconcilePage, type ReconcileWindow } from '@loyalty-gateway/core';
import { z } from 'zod';
import { bearer, isCloverId, merchantUrl, type CloverContext } from './config.js';
import { fetchOrder } from './api.js';
import { toEnvelopes } from './map.js';

/** Orders per listing page (Clover allows up to 1000; each listed order is then fetched back). */
export const RECONCILE_PAGE_SIZE = 100;
/** Every 15 minutes: Clover does not guarantee when, or if, a notification arrives. */
export const RECONCILE_SCHEDULE = '*/15 * * * *';
/**
 * Orders with a reversal recorded in the last 2 days are read back on each run whatever their
 * modification time (window.revisit): Clover does not document whether voiding a refund marks its
 * order modified, and a void or a voided refund comes within the day (before settlement).
 */
export const RECONCILE_REVISIT_DAYS = 2;

const OrderList = z
  .object({ elements: z.array(z.object({ id: z.string(), modifiedTime: z.number().int().nullish() }).loose()).default([]) })
  .loose();

/**
 * Clover's reconciliation pull: the merchant's orders modified in the window
 * (`GET /v3/merchants/{mId}/orders?filter=modifiedTime>=…&filter=modifiedTime<…`, offset paging),
 * each fetched back and mapped exactly as a webhook notification about it would be (api.ts,
 * map.ts): the same transaction and reversal ids, so what the webhook delivered is a duplicate and
 * what it missed is applied now, and its refunds.listed gives back what Clover no longer lists.
 * The first page also reads back the orders of `window.revisit` not listed on it.
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
  const listed = new Set(listing.elements.map((o) => o.id));
  const revisit = cursor === null ? (window.revisit ?? []).filter((id) => !listed.has(id)).map((id) => ({ id, modifiedTime: null })) : [];
  const envelopes: ReconcilePage['envelopes'] = [];
  const failures: NonNullable<ReconcilePage['failures']> = [];
  for (const { id, modifiedTime } of [...listing.elements, ...revisit]) {
    if (!isCloverId(id)) {
      failures.push({ id: id.slice(0, 64), reason: 'not a Clover id: never fetched' });
      continue;
    }
    const order = await fetchOrder(ctx, merchantId, id);
    if (order === null) continue; // deleted since it was listed
    // The mapping reads the state's time from the fetched order (modifiedTime); `ts` is only its fallback.
    const unit = { merchantId, objectId: `O:${id}`, type: 'UPDATE', ts: modifiedTime ?? window.until.getTime() };
    envelopes.push(...toEnvelopes(order, unit).envelopes);
  }
  return { envelopes, failures, examined: listing.elements.length + revisit.length, cursor: next(listing.elements.length) };
}
