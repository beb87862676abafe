import { describe, expect, it } from 'vitest';
import { ANN, SCOPE, sale } from '../testing/fixture.js';
import { expectEngineError, type ContractContext } from './contract-harness.js';

/**
 * A refund's amount is in its own currency (the webhook's `transaction.currency`; POST /v1/refund
 * has none: the sale's). An amount in another currency than the sale's (or, before the sale
 * arrives, the merchant's) is never compared with the sale's total as if it were the same number:
 * it is refused, 400 currency_mismatch, nothing recorded, so the vendor can resend it in the
 * sale's currency under the same refund id. A full refund carries no amount: nothing is compared,
 * it reverses the whole sale whatever currency it names.
 */
export function refundCurrencyContract(t: ContractContext): void {
  const refund = (transactionId: string, refundId: string, amountMinor: number | undefined, currency: string | undefined) =>
    t.engine.reverse({
      ...SCOPE,
      transactionId,
      refundId,
      ...(amountMinor === undefined ? {} : { amountMinor }),
      ...(currency === undefined ? {} : { currency }),
    });

  describe('refund currency', () => {
    it('a partial refund in another currency than its sale is 400 currency_mismatch, nothing reversed or recorded; resent in the sale currency it reverses', async () => {
      const command = sale({ totalMinor: 10_000 });
      await t.engine.earn(command);
      const error = await expectEngineError(refund(command.transaction.id, 'r-1', 5_000, 'EUR'), 'currency_mismatch', 400);
      expect(error.message).toBe(
        'This refund is in EUR but the sale it refunds was in USD: amounts in different currencies are not compared, so nothing was reversed. Send the refund amount in USD (the same refund id may be used).',
      );
      expect(await t.balance(ANN)).toBe(1200 + 100);
      expect(await refund(command.transaction.id, 'r-1', 5_000, 'USD')).toMatchObject({ status: 'REVERSED', pointsReversed: 50 });
      expect(await t.balance(ANN)).toBe(1200 + 50);
    });

    it('the currency is compared exactly as sent once upper-cased by the schema; the same currency passes', async () => {
      const command = sale({ totalMinor: 2_000 });
      await t.engine.earn(command);
      expect(await refund(command.transaction.id, 'r-1', 1_000, 'USD')).toMatchObject({ status: 'REVERSED', pointsReversed: 10 });
    });

    it('a full refund (no amount) compares nothing: it reverses the sale whatever currency it names', async () => {
      const command = sale({ totalMinor: 3_000 });
      await t.engine.earn(command);
      expect(await refund(command.transaction.id, 'r-1', undefined, 'EUR')).toMatchObject({ status: 'REVERSED', pointsReversed: 30 });
      expect(await t.balance(ANN)).toBe(1200);
    });

    it('a refund without a currency (POST /v1/refund) is in the sale currency', async () => {
      const command = sale({ totalMinor: 3_000 });
      await t.engine.earn(command);
      expect(await refund(command.transaction.id, 'r-1', 1_500, undefined)).toMatchObject({ status: 'REVERSED', pointsReversed: 15 });
    });

    it('before its sale arrives, a partial refund is compared with the merchant currency', async () => {
      const command = sale({ totalMinor: 4_000 });
      await expectEngineError(refund(command.transaction.id, 'r-1', 1_000, 'GBP'), 'currency_mismatch', 400);
      expect(await refund(command.transaction.id, 'r-1', 1_000, 'USD')).toMatchObject({ status: 'NOTHING_TO_REVERSE' });
      expect(await t.engine.earn(command)).toMatchObject({ pointsEarned: 30 });
      expect(await t.balance(ANN)).toBe(1200 + 30);
    });

    it("a sale in another currency than the merchant's, arriving after partial refunds in the merchant currency, does not compare their amounts with its total", async () => {
      const command = sale({ totalMinor: 4_000, currency: 'EUR' });
      expect(await refund(command.transaction.id, 'r-1', 4_000, 'USD')).toMatchObject({ status: 'NOTHING_TO_REVERSE' });
      const earned = await t.engine.earn(command);
      expect(earned.pointsEarned).toBe(0);
      expect(earned.warning).toContain('No points or stamps earned: the sale is in EUR');
      expect(earned.warning).toContain('refund r-1 of 40.00 USD was not applied: the sale is in EUR');
      // The sale's reversal is not complete: a full refund later still completes it.
      expect(await refund(command.transaction.id, 'r-2', undefined, 'EUR')).toMatchObject({ status: 'NOTHING_TO_REVERSE' });
      expect(await t.balance(ANN)).toBe(1200);
    });
  });
}
