import { VendorApiError, type AdapterContext, type CatalogPage, type HttpResponse, type ReconcilePage, type ReconcileWindow } from '@loyalty-gateway/core';
import { z } from 'zod';
import { orderEnvelopes, toCatalogItem } from './map.js';
import { WooOrder, WooProduct } from './native.js';
import type { WooCredentials, WooSettings } from './index.js';

export type WooContext = AdapterContext<WooSettings, WooCredentials>;
const PER_PAGE = 100;

/**
 * One page of `GET {site}/wp-json/wc/v3/{resource}` with the connection's REST API keys (Basic auth
 * over HTTPS), page-numbered: the checkpoint is the next page while `X-WP-TotalPages` says there is one.
 */
async function listPage(ctx: WooContext, resource: string, page: number, query: Record<string, string> = {}): Promise<{ response: HttpResponse; next: string | null }> {
  const url = new URL(`wp-json/wc/v3/${resource}`, ctx.storeId).toString();
  const { consumerKey, consumerSecret } = ctx.credentials;
  if (!consumerKey || !consumerSecret) throw new VendorApiError(401, url, `no consumerKey/consumerSecret on the WooCommerce connection ${ctx.storeId}: add its REST API keys (Read)`);
  const response = await ctx.http.request(url, {
    headers: { authorization: `Basic ${Buffer.from(`${consumerKey}:${consumerSecret}`).toString('base64')}` },
    query: { ...query, per_page: PER_PAGE, page },
  });
  const total = Number(response.headers.get('x-wp-totalpages') ?? '1');
  return { response, next: Number.isFinite(total) && page < total ? String(page + 1) : null };
}

const pageOf = (checkpoint: string | null): number => (checkpoint && /^\d+$/.test(checkpoint) ? Number(checkpoint) : 1);

/** The catalog: `GET /wp-json/wc/v3/products`, 100 a page. */
export async function pullProducts(ctx: WooContext, checkpoint: string | null): Promise<CatalogPage> {
  const { response, next } = await listPage(ctx, 'products', pageOf(checkpoint));
  return { items: z.array(WooProduct).parse(response.body).map(toCatalogItem), checkpoint: next };
}

/**
 * Reconciliation: the orders modified in the window (`modified_after` / `modified_before`, GMT,
 * oldest first), each mapped with the webhook's own `orderEnvelopes`: the same order and refund ids,
 * so what a webhook delivered is a duplicate, what WooCommerce never sent (it does not retry) earns now.
 */
export async function pullOrders(ctx: WooContext, window: ReconcileWindow, cursor: string | null): Promise<ReconcilePage> {
  const { response, next } = await listPage(ctx, 'orders', pageOf(cursor), {
    modified_after: window.since.toISOString(), modified_before: window.until.toISOString(), dates_are_gmt: 'true', orderby: 'id', order: 'asc',
  });
  const orders = z.array(z.unknown()).parse(response.body);
  const envelopes: ReconcilePage['envelopes'] = [];
  const failures: NonNullable<ReconcilePage['failures']> = [];
  for (const order of orders) {
    const readable = WooOrder.safeParse(order);
    if (readable.success) envelopes.push(...orderEnvelopes(readable.data, ctx.storeId).envelopes);
    else failures.push({ id: String((order as { id?: unknown } | null)?.id ?? '?').slice(0, 64), reason: `unreadable order: ${readable.error.issues[0]?.path.join('.') ?? '?'} ${readable.error.issues[0]?.message ?? ''}` });
  }
  return { envelopes, failures, examined: orders.length, cursor: next };
}
