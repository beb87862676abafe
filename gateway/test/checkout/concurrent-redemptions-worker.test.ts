import { createWorkerEngine } from '@loyalty-gateway/engine';
import { createDatabase } from '@loyalty-gateway/storage';
import { testDatabaseOptions } from '@loyalty-gateway/storage/testing';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { MEMBERS, PATHS, byMembership, freshId, openCheckoutGateway, rawWallet } from '../../src/testing/checkout-kit.js';
import { postConcurrently } from '../../src/testing/post-concurrently.js';

/**
 * concurrent-redemptions.test.ts runs the in-process engine on SQLite in memory; production SQLite
 * runs the engine on its own worker thread (createWorkerEngine) over a WAL file. The same race there.
 */
describe('concurrent redemptions over real HTTP: the worker engine on a SQLite file (the production setup)', () => {
  it('ten redemptions that together exceed the balance: exactly the ones that fit succeed; the wallet is exact and never negative', async () => {
    const { options, dispose } = await testDatabaseOptions('sqlite'); // a file in a fresh temp dir
    const worker = await createWorkerEngine({ database: options });
    const database = createDatabase<any>(options); // the gateway store and the seeding, on the same file
    const gw = await openCheckoutGateway('sqlite', { database, appEngine: worker });
    try {
      expect((await sql<{ journal_mode: string }>`pragma journal_mode`.execute(database.db)).rows[0]?.journal_mode).toBe('wal');
      const address = await gw.app.listen({ host: '127.0.0.1', port: 0 });
      const member = MEMBERS.concurrent; // 1000 points
      const bodies = Array.from({ length: 10 }, () =>
        JSON.stringify({ customer: byMembership(member.id), externalTransactionId: freshId('W'), pointsToRedeem: 300 }),
      );
      const answers = await postConcurrently(address, PATHS.redeem, bodies);
      const won = answers.filter((a) => a.status === 200);
      const lost = answers.filter((a) => a.status !== 200);
      expect(won).toHaveLength(3);
      expect(won.every((a) => a.body.status === 'REDEEMED' && a.body.pointsDeducted === 300)).toBe(true);
      expect(lost.every((a) => a.status === 400 && a.body.code === 'insufficient_points')).toBe(true);
      expect(won.map((a) => a.body.walletBalance).sort()).toEqual([100, 400, 700]);
      expect(await rawWallet(gw, member.id)).toEqual({ balance: 100, ledgerSum: 100 });
    } finally {
      await gw.close();
      await worker.close();
      await database.close();
      await dispose();
    }
  });
});
