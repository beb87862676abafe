import type { CatalogPage } from '@loyalty-gateway/core';
import { z } from 'zod';
import { listPage } from './api.js';
import type { WooContext } from './config.js';
import { toCatalogItem } from './map.js';
import { WooProduct } from './native.js';

/** Nightly, 03:50. */
export const CATALOG_SCHEDULE = '50 3 * * *';

/** The catalog: `GET /wp-json/wc/v3/products`, 100 a page. */
export async function pullProducts(ctx: WooContext, checkpoint: string | null): Promise<CatalogPage> {
  const { response, next } = await listPage(ctx, 'products', checkpoint);
  return { items: z.array(WooProduct).parse(response.body).map(toCatalogItem), checkpoint: next };
}
