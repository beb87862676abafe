import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { testDialects } from '@loyalty-gateway/storage/testing';
import type { RewardRule } from '../rules/reward-rule.js';
import { IDS, openSeededEngine } from '../testing/fixture.js';
import { recordSales, type SaleRecord } from './earn-postgres.js';

const onPostgres = testDialects().some((d) => d.name === 'postgres');

/** The seed's stamp card (5 coffees) as a sale planned it, with the size it was planned with. */
const stampCard = (stampsRequired: number): RewardRule => ({
  id: IDS.stamp,
  type: 'STAMP',
  title: 'Buy 5 coffees, get one free',
  pointsCost: null,
  discountMinor: null,
  minSpendMinor: null,
  stampsRequired,
  minPoints: null,
  skus: new Set(['COF-LATTE']),
  keywords: ['coffee'],
});

describe.runIf(onPostgres)("recordSales, a group-commit batch's closing statement, on postgres", () => {
  it('refuses a batch in which one stamp card was planned with two sizes (the rewards replaced between two sales); one size records both, each answered as if alone', async () => {
    const t = await openSeededEngine('postgres');
    try {
      const member = await t.db.selectFrom('members').select('id').where('membership_id', '=', 'MBR-0001').executeTakeFirstOrThrow();
      const outlet = await t.db.selectFrom('outlets').select(['id', 'merchant_id']).executeTakeFirstOrThrow();
      const now = new Date().toISOString();
      const record = (transactionId: string, stampsRequired: number): SaleRecord => ({
        sale: {
          id: randomUUID(),
          merchantId: outlet.merchant_id,
          outletId: outlet.id,
          vendor: 'acme-pos',
          storeId: 'store-1',
          transactionId,
          eventId: `evt-${transactionId}`,
          memberId: member.id,
          totalMinor: 450,
          currency: 'USD',
          points: 4,
          occurredAt: now,
          now,
          fingerprint: `fp-${transactionId}`,
          ledgerId: randomUUID(),
        },
        card: { reward: stampCard(stampsRequired), stamps: 2 },
      });
      const run = (records: SaleRecord[]) => t.db.transaction().execute((trx) => recordSales(trx, records));
      const salesOf = () =>
        t.db
          .selectFrom('sales')
          .select('transaction_id')
          .where('transaction_id', 'in', ['tx-a', 'tx-b'])
          .orderBy('transaction_id')
          .execute();

      // The batch then runs again one sale at a time (transaction-batcher), each by the size it was planned with.
      await expect(run([record('tx-a', 5), record('tx-b', 6)])).rejects.toThrow('a stamp card of the batch changed its size');
      expect(await salesOf()).toEqual([]);

      const recorded = await run([record('tx-a', 5), record('tx-b', 5)]);
      expect(recorded.map((r) => [r.inserted, r.stampsUpdated.map((u) => [u.current, u.required, u.completed])])).toEqual([
        [true, [[2, 5, false]]],
        [true, [[4, 5, false]]],
      ]);
      expect(await salesOf()).toEqual([{ transaction_id: 'tx-a' }, { transaction_id: 'tx-b' }]);
      const card = await t.db
        .selectFrom('balances')
        .select('stamps_total')
        .where('member_id', '=', member.id)
        .where('reward_id', '=', IDS.stamp)
        .executeTakeFirstOrThrow();
      expect(Number(card.stamps_total)).toBe(4);
    } finally {
      await t.close();
    }
  });
});
