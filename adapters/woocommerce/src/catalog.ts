import type { AdapterContext, CatalogPage } from '@loyalty-gateway/core';
import { toCatalogItem } from './map.js';
import { WoocommerceProductPage } from './native.js';

export interface Settings { webhookSecret: string | string[]; apiBaseUrl: string }
export interface Credentials { accessToken: string }

/** One page of the vendor's product list; the checkpoint is the vendor's cursor. */
export async function pull(ctx: AdapterContext<Settings, Credentials>, checkpoint: string | null): Promise<CatalogPage> {
  const body = await ctx.http.json(`${ctx.settings.apiBaseUrl}/products`, {
    headers: { authorization: `Bearer ${ctx.credentials.accessToken}` },
    query: { store_id: ctx.storeId, cursor: checkpoint ?? undefined },
  });
  const page = WoocommerceProductPage.parse(body);
  return { items: page.products.map(toCatalogItem), checkpoint: page.next_cursor ?? null };
}
