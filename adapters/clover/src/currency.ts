import type { CloverOrder } from './native.js';

/**
 * Currency of the order. Clover returns an ISO 4217 code on every order; should it be missing,
 * USD is assumed (Clover's home market) rather than dropping a paid sale. Uncertain, isolated.
 */
export function currencyOf(order: CloverOrder): string {
  const code = order.currency?.trim().toUpperCase();
  return code && /^[A-Z]{3}$/.test(code) ? code : 'USD';
}
