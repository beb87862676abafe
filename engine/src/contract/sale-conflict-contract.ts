import { describe, expect, it } from 'vitest';
import { ANN, BOB, sale } from '../testing/fixture.js';
import type { ContractContext } from './contract-harness.js';

/**
 * A transaction id arriving again with another sale (another total, currency, customer or items):
 * still `duplicate` with nothing applied (the ledger's key decides), but the outcome says it
 * conflicts with the first sale and when that one was received. An identical retry, however the
 * vendor serialised it, is a plain duplicate.
 */
export function saleConflictContract(t: ContractContext): void {
  describe('sale conflicts', () => {
    it('the same transaction id with another total is a duplicate that names the conflict; nothing is applied', async () => {
      const first = sale({ totalMinor: 2_000 });
      await t.engine.earn(first);
      const balance = await t.balance(ANN);
      const other = await t.engine.earn({ ...first, eventId: 'another-event', transaction: { ...first.transaction, totalMinor: 9_900 } });
      expect(other).toMatchObject({ status: 'duplicate', membershipId: '', pointsEarned: 0, stampsUpdated: [] });
      expect(other.conflict?.firstReceivedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
      expect(await t.balance(ANN)).toBe(balance);
    });

    it('another customer or other items conflict too', async () => {
      const first = sale({ totalMinor: 1_000, items: [{ name: 'Latte', quantity: 1, unitPriceMinor: 1_000 }] });
      await t.engine.earn(first);
      expect((await t.engine.earn({ ...first, transaction: { ...first.transaction, customer: BOB } })).conflict).toBeDefined();
      expect(
        (
          await t.engine.earn({
            ...first,
            transaction: { ...first.transaction, items: [{ name: 'Tea', quantity: 1, unitPriceMinor: 1_000 }] },
          })
        ).conflict,
      ).toBeDefined();
    });

    it('an identical retry (new event id, re-serialised) is a plain duplicate without a conflict', async () => {
      const first = sale({ totalMinor: 1_500 });
      await t.engine.earn(first);
      const retry = JSON.parse(JSON.stringify({ ...first, eventId: 'retry-event', occurredAt: '2030-01-01T00:00:00Z' }));
      const answer = await t.engine.earn(retry);
      expect(answer.status).toBe('duplicate');
      expect(answer.conflict).toBeUndefined();
    });
  });
}
