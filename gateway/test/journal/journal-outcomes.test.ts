import { randomBytes } from 'node:crypto';
import { openTestDatabase, testDialects } from '@loyalty-gateway/storage/testing';
import { describe, expect, it } from 'vitest';
import { gatewayMigrations } from '../../src/stores/gateway-migrations.js';
import { CompiledQuery } from 'kysely';
import { queryPlan } from '../../src/testing/query-plan.js';
import { journalEntry, migrateWithEarlierEntries } from '../../src/testing/journal-entries.js';
import { createDeliveryJournal, type DeliveryInput } from '../../src/journal/delivery-journal.js';
import { recoveriesQuery } from '../../src/journal/journal-queries.js';

const entry = (n: number, at: number, overrides: Partial<DeliveryInput> = {}): DeliveryInput => journalEntry(n, new Date(at), overrides);

describe.each(testDialects())('what a journal entry says of its outcome ($name)', ({ name }) => {
  it('keeps what a sale earned or reversed, its stamps, why it earned nothing and the cause of a failure; older entries read as unknown, untouched', async () => {
    const database = await openTestDatabase<any>(name);
    const at = Date.UTC(2026, 11, 1, 9, 0, 0);
    // An entry journalled before these columns existed (migration 0014), then the schema as it is now.
    await migrateWithEarlierEntries(database.db, '0014', [{ id: 'x', request_id: 'req-old', received_at: at - 1000, status: 500 }]);
    const journal = await createDeliveryJournal({ database, masterKey: randomBytes(32), flushMs: 60_000 });
    try {
      journal.record(entry(1, at, { pointsEarned: 12, stamps: 'Coffee card 4/10', warning: null }));
      journal.record(
        entry(2, at + 1, {
          pointsEarned: 0,
          nothingEarned: 'unknown_customer',
          warning: 'No member matches email j***@example.com. The sale was recorded; no points or stamps were awarded.',
        }),
      );
      journal.record(entry(3, at + 2, { eventType: 'sale.refunded', pointsReversed: 7 }));
      journal.record(
        entry(4, at + 3, {
          status: 500,
          outcome: 'engine_unavailable_retry',
          failure: { call: 'engine earn', what: `timed out: no answer within 2000 ms ${'x'.repeat(600)}`, ms: 2003.6 },
        }),
      );
      await journal.flush();
      expect(await journal.get('req-1')).toMatchObject({
        pointsEarned: 12,
        pointsReversed: null,
        stamps: 'Coffee card 4/10',
        nothingEarned: null,
        failure: null,
      });
      expect(await journal.get('req-2')).toMatchObject({ pointsEarned: 0, nothingEarned: 'unknown_customer' });
      expect(await journal.get('req-3')).toMatchObject({ pointsEarned: null, pointsReversed: 7 });
      const failed = (await journal.get('req-4'))!;
      expect(failed.failure).toEqual({
        call: 'engine earn',
        what: expect.stringMatching(/^timed out: no answer within 2000 ms x+\[clipped\]$/),
        ms: 2004,
      });
      expect(failed.failure!.what.length).toBeLessThanOrEqual(300);
      expect(await journal.get('x')).toMatchObject({
        requestId: 'req-old',
        pointsEarned: null,
        pointsReversed: null,
        stamps: null,
        nothingEarned: null,
        failure: null,
        recoveredBy: null,
      });
    } finally {
      await journal.close();
      await database.close();
    }
  });

  it('finds the sales that were processed but earned nothing, for any reason or one, in the list and its windowed search', async () => {
    const database = await openTestDatabase<any>(name, gatewayMigrations);
    const journal = await createDeliveryJournal({
      database,
      masterKey: randomBytes(32),
      flushMs: 60_000,
      searchWindow: 2,
      searchWindows: 2,
    });
    try {
      const at = Date.UTC(2026, 11, 1, 10, 0, 0);
      journal.record(entry(1, at, { nothingEarned: 'walk_in', pointsEarned: 0 }));
      journal.record(entry(2, at + 1, { pointsEarned: 5 }));
      journal.record(entry(3, at + 2, { nothingEarned: 'below_threshold', pointsEarned: 0 }));
      for (let n = 4; n < 12; n += 1) journal.record(entry(n, at + n, { pointsEarned: 1 }));
      await journal.flush();
      // Followed through every page: the search examines at most 4 entries a page.
      const everyMatch = async (filter: Parameters<typeof journal.list>[0]) => {
        const found: string[] = [];
        let cursor: string | undefined;
        do {
          const page = await journal.list({ ...filter, cursor });
          found.push(...page.deliveries.map((d) => `${d.requestId}:${d.nothingEarned}`));
          cursor = page.nextCursor ?? undefined;
        } while (cursor);
        return found;
      };
      expect(await everyMatch({ nothingEarned: 'any' })).toEqual(['req-3:below_threshold', 'req-1:walk_in']);
      expect(await everyMatch({ nothingEarned: 'walk_in' })).toEqual(['req-1:walk_in']);
      expect(await everyMatch({ nothingEarned: 'walk_in', store: 's-2' })).toEqual([]);
    } finally {
      await journal.close();
      await database.close();
    }
  });

  it('a failed delivery that a replay answered is recovered by that replay, in the list and by id; a failed replay recovers nothing', async () => {
    const database = await openTestDatabase<any>(name, gatewayMigrations);
    const journal = await createDeliveryJournal({ database, masterKey: randomBytes(32), flushMs: 60_000 });
    try {
      const at = Date.UTC(2026, 11, 1, 11, 0, 0);
      const kept = { body: Buffer.from('{}'), headers: {} };
      journal.record(entry(1, at, { status: 500, outcome: 'engine_unavailable_retry' }), kept.body, kept);
      journal.record(entry(2, at + 1, { status: 503, outcome: 'vendor_api_unavailable' }), kept.body, kept);
      await journal.flush();
      const original = (await journal.get('req-1'))!;
      expect(original.recoveredBy).toBeNull();
      journal.record(entry(3, at + 10, { status: 500, outcome: 'engine_unavailable_retry', replayOf: original.id }), kept.body, kept);
      await journal.flush();
      expect((await journal.get('req-1'))!.recoveredBy).toBeNull();
      journal.record(entry(4, at + 20, { status: 200, outcome: 'processed', replayOf: original.id }), kept.body, kept);
      await journal.flush();
      const replay = (await journal.get('req-4'))!;
      expect((await journal.get('req-1'))!.recoveredBy).toBe(replay.id);
      expect((await journal.get(original.id))!.recoveredBy).toBe(replay.id);
      const listed = (await journal.list({})).deliveries;
      expect(listed.map((d) => [d.requestId, d.recoveredBy])).toEqual([
        ['req-4', null],
        ['req-3', null],
        ['req-2', null],
        ['req-1', replay.id],
      ]);
      expect((await journal.list({ status: 500 })).deliveries.map((d) => [d.requestId, d.recoveredBy])).toEqual([
        ['req-3', null],
        ['req-1', replay.id],
      ]);
    } finally {
      await journal.close();
      await database.close();
    }
  });

  it("a page's recoveries are read through the replays' index (migration 0010), never the whole journal", async () => {
    const database = await openTestDatabase<any>(name, gatewayMigrations);
    const journal = await createDeliveryJournal({ database, masterKey: randomBytes(32), flushMs: 60_000 });
    try {
      const at = Date.UTC(2026, 11, 1, 12, 0, 0);
      for (let n = 0; n < 2_000; n += 1) journal.record(entry(n, at + n, { status: n % 10 === 0 ? 500 : 200 }));
      await journal.flush();
      await database.db.executeQuery(CompiledQuery.raw('analyze'));
      const ids = Array.from({ length: 50 }, (_, n) => `some-entry-${n}`);
      const plan = await queryPlan(database.db, name, recoveriesQuery(database.db, ids).compile());
      expect(plan).toContain('gw_deliveries_replay_idx');
      expect(plan).not.toMatch(/SCAN gw_deliveries(?! USING)|Seq Scan/);
    } finally {
      await journal.close();
      await database.close();
    }
  });
});
