import type { DiscountCode, Item } from '@loyalty-gateway/core';
import { decimalToMinor, minorToAmount } from './decimal.js';
import type { ShopifyDiscountCode, ShopifyLineItem } from './native.js';

/** Quantity as Shopify sends it (an integer; a string tolerated) as a positive number, or null. */
function quantityOf(value: ShopifyLineItem['quantity']): number | null {
  const quantity = typeof value === 'string' ? Number(value.trim()) : value;
  return typeof quantity === 'number' && Number.isFinite(quantity) && quantity > 0 ? quantity : null;
}

/** The variant GID, the same externalId the catalog pull reports, so lines and catalog agree. */
function itemId(line: ShopifyLineItem): string | undefined {
  if (line.variant_id) return `gid://shopify/ProductVariant/${line.variant_id}`;
  if (line.product_id) return `gid://shopify/Product/${line.product_id}`;
  return undefined;
}

/** One canonical line, or null for a free line (unit price not > 0) or an unusable quantity. */
export function toItem(line: ShopifyLineItem): Item | null {
  const unitMinor = decimalToMinor(line.price);
  const quantity = quantityOf(line.quantity);
  if (unitMinor === null || unitMinor <= 0 || quantity === null) return null;
  const name = (line.name?.trim() || line.title?.trim() || 'Item').slice(0, 255);
  const sku = line.sku?.trim();
  const id = itemId(line);
  const base = { ...(id ? { id } : {}), name, ...(sku && sku.length <= 255 ? { sku } : {}) };
  if (Number.isInteger(quantity)) return { ...base, quantity, unitPrice: minorToAmount(unitMinor) };
  // A fractional quantity (weighed goods; Shopify sends integers today, kept for parity with the
  // other adapters) becomes one line of quantity 1 priced at the line total, rounded to the cent.
  const lineMinor = Math.round(unitMinor * quantity);
  return lineMinor > 0 ? { ...base, quantity: 1, unitPrice: minorToAmount(lineMinor) } : null;
}

export function toItems(lines: ShopifyLineItem[] | null | undefined): Item[] {
  return (lines ?? []).map(toItem).filter((item): item is Item => item !== null);
}

/** Every applied code, with its amount and type when Shopify gives them. */
export function toDiscountCodes(codes: ShopifyDiscountCode[] | null | undefined): DiscountCode[] {
  const result: DiscountCode[] = [];
  for (const entry of codes ?? []) {
    const code = entry.code?.trim();
    if (!code || code.length > 255) continue;
    const amountMinor = decimalToMinor(entry.amount);
    const type = entry.type?.trim().slice(0, 50);
    result.push({
      code,
      ...(amountMinor !== null && amountMinor >= 0 ? { amount: minorToAmount(amountMinor) } : {}),
      ...(type ? { type } : {}),
    });
  }
  return result;
}
