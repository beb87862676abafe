import { decimalToMinor, type DiscountCode, fromMinorUnits, type Item, vendorText } from '@loyalty-gateway/core';
import type { ShopifyDiscountCode, ShopifyLineItem } from './native.js';

/** Quantity as Shopify sends it (an integer; a string tolerated) as a positive number within the safe integers, or null. */
function quantityOf(value: ShopifyLineItem['quantity']): number | null {
  const quantity = typeof value === 'string' ? Number(value.trim()) : value;
  return typeof quantity === 'number' && quantity > 0 && quantity <= Number.MAX_SAFE_INTEGER ? quantity : null;
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
  const name = vendorText(line.name?.trim() || line.title?.trim() || 'Item');
  const rawSku = line.sku?.trim();
  // A SKU longer than the schema's 255 is left out, not cut: a cut SKU would name another product.
  const sku = rawSku && rawSku.length <= 255 ? vendorText(rawSku) : undefined;
  const id = itemId(line);
  const base = { ...(id ? { id } : {}), name, ...(sku ? { sku } : {}) };
  if (Number.isInteger(quantity)) return { ...base, quantity, unitPrice: fromMinorUnits(unitMinor) };
  // A fractional quantity (weighed goods; Shopify sends integers today, kept for parity with the
  // other adapters) becomes one line of quantity 1 priced at the line total, rounded to the cent.
  const lineMinor = Math.round(unitMinor * quantity);
  return lineMinor > 0 ? { ...base, quantity: 1, unitPrice: fromMinorUnits(lineMinor) } : null;
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
    const type = entry.type?.trim() && vendorText(entry.type.trim(), 50);
    result.push({
      code: vendorText(code),
      ...(amountMinor !== null && amountMinor >= 0 ? { amount: fromMinorUnits(amountMinor) } : {}),
      ...(type ? { type } : {}),
    });
  }
  return result;
}
