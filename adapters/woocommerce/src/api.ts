import { VendorApiError, numberedPage, type HttpResponse } from '@loyalty-gateway/core';
import type { WooContext } from './config.js';

const PER_PAGE = 100;

/**
 * One page of `GET {site}/wp-json/wc/v3/{resource}` with the connection's REST API keys (Basic auth
 * over HTTPS), page-numbered: the checkpoint is the next page while `X-WP-TotalPages` says there is one.
 */
export async function listPage(
  ctx: WooContext,
  resource: string,
  checkpoint: string | null,
  query: Record<string, string> = {},
): Promise<{ response: HttpResponse; next: string | null }> {
  const url = new URL(`wp-json/wc/v3/${resource}`, ctx.storeId).toString();
  const { consumerKey, consumerSecret } = ctx.credentials;
  if (!consumerKey || !consumerSecret)
    throw new VendorApiError(
      401,
      url,
      `no consumerKey/consumerSecret on the WooCommerce connection ${ctx.storeId}: add its REST API keys (Read)`,
    );
  const paging = numberedPage(checkpoint);
  const response = await ctx.http.request(url, {
    headers: { authorization: `Basic ${Buffer.from(`${consumerKey}:${consumerSecret}`).toString('base64')}` },
    query: { ...query, per_page: PER_PAGE, page: paging.page },
  });
  return { response, next: paging.next(Number(response.headers.get('x-wp-totalpages') ?? '1')) };
}
