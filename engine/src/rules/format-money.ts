import { fromMinorUnits } from '@loyalty-gateway/core';

const formatters = new Map<string, Intl.NumberFormat>();

/** Minor units as the cashier reads them: 1250 USD → "$12.50", EUR → "€12.50". */
export function formatMoney(minor: number, currency: string): string {
  let formatter = formatters.get(currency);
  if (!formatter) {
    try {
      formatter = new Intl.NumberFormat('en-US', { style: 'currency', currency });
    } catch {
      return `${fromMinorUnits(minor).toFixed(2)} ${currency}`;
    }
    formatters.set(currency, formatter);
  }
  return formatter.format(fromMinorUnits(minor));
}

/** "1 point", "320 points". */
export const formatPoints = (points: number): string => `${points} point${points === 1 ? '' : 's'}`;
