import { fromMinorUnits } from '@loyalty-gateway/core';
import type { SquareMoney } from './native.js';

/**
 * Square amounts count the currency's SMALLEST unit: cents for USD/CAD/GBP/AUD/EUR, but whole yen
 * for JPY (Square Japan). The canonical envelope wants a decimal in the currency, so the exponent
 * matters. Uncertain beyond Square's markets: ISO 4217 zero-decimal currencies are listed below;
 * three-decimal currencies (BHD, KWD, ...) cannot be a multiple of 0.01 and are refused (null).
 */
const ZERO_DECIMAL = new Set([
  'JPY',
  'KRW',
  'VND',
  'CLP',
  'ISK',
  'PYG',
  'UGX',
  'XAF',
  'XOF',
  'XPF',
  'BIF',
  'DJF',
  'GNF',
  'KMF',
  'RWF',
  'VUV',
]);
const THREE_DECIMAL = new Set(['BHD', 'IQD', 'JOD', 'KWD', 'LYD', 'OMR', 'TND']);

export function currencyExponent(currency: string): 0 | 2 | null {
  if (ZERO_DECIMAL.has(currency)) return 0;
  if (THREE_DECIMAL.has(currency)) return null;
  return 2;
}

/** Square smallest-unit integer → the canonical decimal number (1999 USD → 19.99; 1000 JPY → 1000). */
export function squareAmountToDecimal(amount: number, currency: string): number | null {
  if (!Number.isSafeInteger(amount)) return null;
  const exponent = currencyExponent(currency);
  if (exponent === null) return null;
  return exponent === 0 ? amount : fromMinorUnits(amount);
}

/** A Square Money object → decimal, or null when absent or not convertible. */
export function squareMoney(money: SquareMoney | null | undefined): number | null {
  if (!money || typeof money.amount !== 'number' || !money.currency) return null;
  return squareAmountToDecimal(money.amount, money.currency);
}

/** A Square Money object → decimal only when strictly greater than 0 (prices, totals, refunds). */
export function positiveSquareMoney(money: SquareMoney | null | undefined): number | null {
  const value = squareMoney(money);
  return value !== null && value > 0 ? value : null;
}

/** A Square amount as decimal text for notes: 1000 USD → "10.00", 1000 JPY → "1000". */
export function formatSquareAmount(amount: number, currency: string): string {
  if (currencyExponent(currency) === 0) return String(amount);
  const sign = amount < 0 ? '-' : '';
  const digits = String(Math.abs(amount)).padStart(3, '0');
  return `${sign}${digits.slice(0, -2)}.${digits.slice(-2)}`;
}
