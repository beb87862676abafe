import { vendorText, type DiscountCode } from '@loyalty-gateway/core';
import { centsToAmount } from './cents.js';
import type { CloverDiscount, CloverOrder } from './native.js';

/**
 * One Clover discount → a canonical code. Clover has no separate "code": the discount's name is
 * what the cashier picked or typed, so it is the code (a reward code typed as the name matches).
 * Clover keeps a fixed discount's `amount` negative (-500 = $5.00 off); the sign is dropped.
 * A percentage discount carries `percentage` and no amount: the amount is left out, not computed.
 */
export function toDiscountCode(discount: CloverDiscount): DiscountCode | null {
  const name = discount.name?.trim();
  if (!name || name.length > 255) return null;
  const code = vendorText(name);
  if (typeof discount.amount === 'number') {
    const amount = centsToAmount(Math.abs(discount.amount));
    return amount === null ? { code, type: 'fixed_amount' } : { code, amount, type: 'fixed_amount' };
  }
  if (typeof discount.percentage === 'number') return { code, type: 'percentage' };
  return { code };
}

/** Every applied discount: order-level first, then line-level ones when the expansion has them. */
export function toDiscountCodes(order: CloverOrder): DiscountCode[] {
  const lineDiscounts = (order.lineItems?.elements ?? []).flatMap((line) => line.discounts?.elements ?? []);
  return [...(order.discounts?.elements ?? []), ...lineDiscounts].map(toDiscountCode).filter((d): d is DiscountCode => d !== null);
}
