import { offsetPage, type CatalogPage } from '@loyalty-gateway/core';
import { bearer, merchantUrl, type CloverContext } from './config.js';
import { toCatalogItems } from './map.js';
import { CloverItemPage } from './native.js';

/** Clover's page size for inventory items. */
export const CATALOG_PAGE_SIZE = 100;

/** Nightly, 03:20 (the gateway's clock), after the merchant's day is closed. */
export const CATALOG_SCHEDULE = '20 3 * * *';

/**
 * One page of `GET /v3/merchants/{mId}/items?limit=100&offset=N&expand=categories`. Clover gives no
 * total or next link: a page shorter than the limit is the last one. The checkpoint is the next
 * offset; anything unreadable restarts at 0.
 */
export async function pullCatalog(ctx: CloverContext, checkpoint: string | null): Promise<CatalogPage> {
  const { offset, limit, next } = offsetPage(checkpoint, CATALOG_PAGE_SIZE);
  const raw = await ctx.http.json(merchantUrl(ctx, ctx.storeId, '/items'), {
    headers: bearer(ctx),
    query: { limit, offset, expand: 'categories' },
  });
  const elements = CloverItemPage.parse(raw).elements ?? [];
  return {
    items: toCatalogItems(elements),
    checkpoint: next(elements.length),
  };
}
