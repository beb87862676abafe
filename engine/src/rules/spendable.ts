import { formatPoints } from './format-money.js';

/**
 * A wallet's balance may be below zero: a refund takes back the points its sale earned even when
 * they were already spent (the ledger stays true). What the customer can spend is never negative;
 * the debt is repaid by later earnings before anything becomes spendable again.
 */
export const spendablePoints = (balance: number): number => Math.max(0, balance);

/** What the cashier reads for the customer's side of a shortfall: "320", or the debt explained. */
export const balanceText = (balance: number): string =>
  balance >= 0 ? String(balance) : `none to spend (owes ${formatPoints(-balance)} after a refund)`;

/** Eligibility's warning for a customer in debt; null otherwise. */
export const debtWarning = (balance: number): string | null =>
  balance >= 0
    ? null
    : `This customer owes ${formatPoints(-balance)}: a refund took back points already spent. Nothing can be redeemed with points until they are earned back.`;
