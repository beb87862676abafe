import { VendorApiError, type HttpResponse } from '@loyalty-gateway/core';
import type { WooContext } from './config.js';

const PER_PAGE = 100;

/**
 * One page of `GET {site}/wp-json/wc/v3/{resource}` with the connection's REST API keys (Basic auth
 * over HTTPS), page-numbered: the checkpoint is the next page while `X-WP-TotalPages` says there is one.
 */
export async function listPage(ctx: WooContext, resource: string, page: number, query: Record<string, string> = {}): Promise<{ response: HttpResponse; next: string | null }> {
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

/** The page a checkpoint or cursor names (the first when there is none). */
export const pageOf = (checkpoint: string | null): number => (checkpoint && /^\d+$/.test(checkpoint) ? Number(checkpoint) : 1);

