import { vendorText, type Item } from '@loyalty-gateway/core';
import { positiveAmount } from './cents.js';
import type { CloverLineItem } from './native.js';

/** Clover's fixed-point scale for `unitQty` (2500 = 2.5 units). */
const UNIT_QTY_SCALE = 1000;

export interface LineQuantity {
  quantity: number;
  unitPriceCents: number;
}

/**
 * Quantity and unit price of one Clover line item.
 *
 * Clover represents "3 × coffee" as three line items, each without `unitQty`. `unitQty` is set for
 * PER_UNIT items (sold by weight or measure) as a fixed-point number with scale 1000, and the line
 * is charged `price × unitQty / 1000` (Clover API reference, orderCreateLineItem / unitQty).
 * Uncertain: whether Clover ever sets `unitQty` on fixed-price lines (the docs say it is ignored
 * there), and how Clover rounds a fractional cent (half-up assumed, Math.round on cents).
 * - no `unitQty` → quantity 1 at `price`;
 * - a whole number of units (e.g. 2000) → that integer quantity at `price`;
 * - a fractional quantity (weighed goods, e.g. 1250 = 1.25 lb) → ONE line with quantity 1 whose
 *   unit price is the line total, because the canonical quantity is an integer ≥ 1.
 */
export function lineQuantity(priceCents: number, unitQty: number | null | undefined): LineQuantity | null {
  if (unitQty === null || unitQty === undefined) return { quantity: 1, unitPriceCents: priceCents };
  if (!Number.isSafeInteger(unitQty) || unitQty <= 0) return null;
  if (unitQty % UNIT_QTY_SCALE === 0) return { quantity: unitQty / UNIT_QTY_SCALE, unitPriceCents: priceCents };
  return { quantity: 1, unitPriceCents: Math.round((priceCents * unitQty) / UNIT_QTY_SCALE) };
}

/** The name a line shows (Clover allows a custom line without an inventory item). */
function lineName(line: CloverLineItem): string {
  const name = line.name?.trim() || line.alternateName?.trim() || 'Item';
  return vendorText(name);
}

/**
 * Clover line items → canonical items. Left out: lines whose unit price is not > 0 (free items,
 * comps) and lines marked `exchanged` (replaced by another line of the same order).
 * `id` is the inventory item id (the catalog's externalId); `sku` the item code when Clover has one.
 */
export function toItems(lines: readonly CloverLineItem[]): Item[] {
  const items: Item[] = [];
  for (const line of lines) {
    if (line.exchanged === true || typeof line.price !== 'number') continue;
    const qty = lineQuantity(line.price, line.unitQty);
    if (!qty) continue;
    const unitPrice = positiveAmount(qty.unitPriceCents);
    if (unitPrice === null) continue;
    const item: Item = { name: lineName(line), quantity: qty.quantity, unitPrice };
    const id = line.item?.id ?? line.id;
    if (id) item.id = vendorText(id);
    if (line.itemCode?.trim()) item.sku = vendorText(line.itemCode.trim());
    items.push(item);
  }
  return items;
}
