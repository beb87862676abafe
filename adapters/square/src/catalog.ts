import { cursorPage, type CatalogPage } from '@loyalty-gateway/core';
import { toCatalogItems } from './map.js';
import { listCatalogPage, type SquareContext } from './api.js';

/** Nightly, after Square's quietest hours in most markets. */
export const CATALOG_SCHEDULE = '20 3 * * *';

/**
 * One page of `GET /v2/catalog/list?types=ITEM`; the checkpoint is Square's opaque cursor, null
 * once Square stops returning one. Retries on 429 (Retry-After) and 5xx are the ctx.http client's.
 */
export async function pullCatalog(ctx: SquareContext, checkpoint: string | null): Promise<CatalogPage> {
  const page = await listCatalogPage(ctx, checkpoint);
  const items = (page.objects ?? []).flatMap((object) => toCatalogItems(object, ctx.storeId));
  return { items, checkpoint: cursorPage(checkpoint).next(page.cursor) };
}
