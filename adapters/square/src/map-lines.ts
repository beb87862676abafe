import { vendorText, type DiscountCode, type Item } from '@loyalty-gateway/core';
import type { SquareLineItem, SquareOrderDiscount } from './native.js';
import { positiveSquareMoney, squareMoney } from './square-money.js';

export type Quantity = { kind: 'whole'; count: number } | { kind: 'fractional' } | { kind: 'none' };

/**
 * Square quantities are decimal strings ("2", "2.000", "1.25"). Whole values become integers;
 * anything with a non-zero fraction (weighed or measured goods) is reported as fractional; zero,
 * negative or malformed values as none.
 */
export function parseQuantity(raw: string): Quantity {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(raw.trim());
  if (!match) return { kind: 'none' };
  const whole = Number(match[1]);
  const fraction = match[2] ?? '';
  if (/[1-9]/.test(fraction)) return { kind: 'fractional' };
  return whole >= 1 && Number.isSafeInteger(whole) ? { kind: 'whole', count: whole } : { kind: 'none' };
}

/** "Coffee" + "Large" → "Coffee (Large)": the same shape the catalog pull gives multi-variation items. */
export function itemDisplayName(itemName: string, variationName?: string | null): string {
  const variation = variationName?.trim();
  return variation && variation !== itemName ? `${itemName} (${variation})` : itemName;
}

/**
 * One order line → one canonical item, or null when it must be left out (free lines, unit price
 * not > 0, unusable quantity).
 * - unitPrice is `base_price_money` (the variation's price; modifiers are not added).
 * - A fractional quantity (e.g. 1.25 kg) cannot be an integer quantity: it becomes ONE line with
 *   quantity 1 and unitPrice = the line's gross total (`gross_sales_money`, before discounts).
 * - sku is not on Square order lines; `id` is the variation id, which is the catalog pull's
 *   externalId (the catalog carries the sku).
 */
export function toItem(line: SquareLineItem): Item | null {
  const name = vendorText(itemDisplayName(line.name?.trim() || 'Custom amount', line.variation_name));
  const id = line.catalog_object_id ? { id: vendorText(line.catalog_object_id) } : {};
  const quantity = parseQuantity(line.quantity);
  if (quantity.kind === 'none') return null;
  if (quantity.kind === 'fractional') {
    const lineTotal = positiveSquareMoney(line.gross_sales_money ?? line.variation_total_price_money);
    return lineTotal === null ? null : { ...id, name, quantity: 1, unitPrice: lineTotal };
  }
  const unitPrice = positiveSquareMoney(line.base_price_money);
  return unitPrice === null ? null : { ...id, name, quantity: quantity.count, unitPrice };
}

export function toItems(lines: readonly SquareLineItem[] | null | undefined): Item[] {
  return (lines ?? []).map(toItem).filter((item): item is Item => item !== null);
}

/**
 * Square orders carry discounts, not "codes". Uncertain: Square has no coupon-code field on the
 * order, so each applied discount is reported with its NAME as the code (a merchant who names a
 * discount after an issued reward code gets it matched; other names are ignored harmlessly by the
 * gateway). amount = applied_money; type from Square's FIXED_/VARIABLE_ PERCENTAGE|AMOUNT.
 */
export function toDiscountCode(discount: SquareOrderDiscount): DiscountCode | null {
  const code = discount.name?.trim() || discount.catalog_object_id || discount.uid;
  if (!code) return null;
  const amount = squareMoney(discount.applied_money);
  const type = discount.type?.endsWith('PERCENTAGE') ? 'percentage' : discount.type?.endsWith('AMOUNT') ? 'fixed_amount' : undefined;
  return {
    code: vendorText(code),
    ...(amount !== null && amount >= 0 ? { amount } : {}),
    ...(type ? { type } : {}),
  };
}

export function toDiscountCodes(discounts: readonly SquareOrderDiscount[] | null | undefined): DiscountCode[] {
  return (discounts ?? []).map(toDiscountCode).filter((code): code is DiscountCode => code !== null);
}

/** The order's source (e.g. "Square Online", an app name) as the channel, else `pos`. */
export function toChannel(sourceName: string | null | undefined): string {
  const name = sourceName?.trim();
  return name ? vendorText(name, 50) : 'pos';
}
