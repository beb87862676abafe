import type { CatalogPage } from '@loyalty-gateway/core';
import { shopifyGraphql, type ShopifyContext } from './api.js';
import { toCatalogItems } from './map.js';
import { ShopifyVariantsPage } from './native.js';

/** Nightly, off the hour (cron, the gateway's local time). */
export const CATALOG_SCHEDULE = '20 3 * * *';
export const PAGE_SIZE = 250;

/**
 * The catalog query pages the `productVariants` connection (250 variants, each with its product's
 * title, type and status) rather than `products(first: 250) { variants(first: 250) }`: Shopify
 * prices a query at about first × nested first (~63,000 points there) and refuses anything above
 * 1,000, while this one costs ~502 and needs no nested pagination for products with many variants.
 */
export const CATALOG_QUERY = `query LoyaltyCatalog($first: Int!, $cursor: String) {
  productVariants(first: $first, after: $cursor) {
    nodes { id title sku price product { title productType status } }
    pageInfo { hasNextPage endCursor }
  }
}`;

/** One page of the catalog and where the next starts (null on the last page). */
export async function pullCatalog(ctx: ShopifyContext, checkpoint: string | null): Promise<CatalogPage> {
  const page = await shopifyGraphql(ctx, ShopifyVariantsPage, CATALOG_QUERY, { first: PAGE_SIZE, cursor: checkpoint });
  const { nodes, pageInfo } = page.productVariants;
  return {
    items: toCatalogItems(nodes),
    checkpoint: pageInfo.hasNextPage && pageInfo.endCursor ? pageInfo.endCursor : null,
  };
}
