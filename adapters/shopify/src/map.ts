import { type CatalogItem, decimalToMinor, fromMinorUnits, isKeyableId, type MapResult, vendorText } from '@loyalty-gateway/core';
import { disputeEnvelopes } from './map-dispute.js';
import { orderEnvelopes } from './map-order.js';
import { refundEnvelopes } from './map-refund.js';
import type { ShopifyVariantNode } from './native.js';
import type { ShopifyUnit } from './auth.js';

/**
 * Pure mapping of one Shopify webhook to canonical envelopes. Topics the gateway does not act on
 * (and test notifications, test orders, zero totals) give zero envelopes with a note, so the
 * gateway answers 200 and Shopify does not retry. order_transactions/create, which reads the
 * order back, is map-unit.ts's.
 */
export function toEnvelopes(unit: ShopifyUnit, storeId: string, now: Date): MapResult {
  switch (unit.topic) {
    case 'orders/paid':
      return orderEnvelopes('sale.completed', unit, storeId, now);
    case 'orders/cancelled':
      return orderEnvelopes('sale.voided', unit, storeId, now);
    case 'refunds/create':
      return refundEnvelopes(unit, storeId, now);
    case 'disputes/create':
    case 'disputes/update':
      return disputeEnvelopes(unit, storeId, now);
    case '':
      return { envelopes: [], note: 'no X-Shopify-Topic header: nothing to do' };
    default:
      return { envelopes: [], note: `Shopify topic ${unit.topic} is not used for loyalty: nothing to do` };
  }
}

const DEFAULT_VARIANT_TITLE = 'Default Title';

/** A page's variants as catalog items; a variant whose id cannot key an item is left out (one invalid item would fail the pull). */
export const toCatalogItems = (variants: readonly ShopifyVariantNode[]): CatalogItem[] =>
  variants.filter((variant) => isKeyableId(variant.id)).map(toCatalogItem);

/** One catalog item per variant: externalId is the variant GID, the name "Product - Variant". */
export function toCatalogItem(variant: ShopifyVariantNode): CatalogItem {
  const productTitle = variant.product.title?.trim() || 'Untitled product';
  const variantTitle = variant.title?.trim();
  const name = variantTitle && variantTitle !== DEFAULT_VARIANT_TITLE ? `${productTitle} - ${variantTitle}` : productTitle;
  const sku = variant.sku?.trim();
  const category = variant.product.productType?.trim();
  const priceMinor = decimalToMinor(variant.price);
  return {
    externalId: variant.id,
    name: vendorText(name),
    ...(sku && sku.length <= 255 ? { sku: vendorText(sku) } : {}),
    ...(category ? { category: vendorText(category) } : {}),
    ...(priceMinor !== null && priceMinor > 0 ? { price: fromMinorUnits(priceMinor) } : {}),
    isActive: variant.product.status === 'ACTIVE',
  };
}
