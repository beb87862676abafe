import { randomBytes } from 'node:crypto';
import { openTestDatabase, testDialects } from '@loyalty-gateway/storage/testing';
import { CompiledQuery } from 'kysely';
import { describe, expect, it } from 'vitest';
import { gatewayMigrations } from '../stores/gateway-migrations.js';
import { journalEntry, migrateWithEarlierEntries } from '../testing/journal-entries.js';
import { createDeliveryJournal } from './delivery-journal.js';
import { idFloor } from './journal-ids.js';

describe.each(testDialects())('delivery journal ($name)', ({ name }) => {
  it('never blocks or fails the caller: past maxBacklog entries are dropped and counted; a write failure is reported, not thrown', async () => {
    const database = await openTestDatabase<any>(name, gatewayMigrations);
    const errors: number[] = [];
    const journal = await createDeliveryJournal({
      database,
      masterKey: randomBytes(32),
      maxBacklog: 2,
      flushMs: 60_000,
      onError: (_e, dropped) => errors.push(dropped),
    });
    try {
      for (let n = 0; n < 5; n += 1) journal.record(journalEntry(n, new Date()));
      expect(journal.backlog()).toMatchObject({ waiting: 2, dropped: 3 });
      await journal.flush();
      expect(journal.backlog().waiting).toBe(0);
      await database.close();
      journal.record(journalEntry(7, new Date()));
      await journal.flush();
      expect(errors).toEqual([1]);
    } finally {
      await journal.close().catch(() => {});
    }
  });

  it('the inspector sees every entry recorded before it asked, even one still queued for the next batch', async () => {
    const database = await openTestDatabase<any>(name, gatewayMigrations);
    const journal = await createDeliveryJournal({ database, masterKey: randomBytes(32), flushMs: 60_000 });
    try {
      const at = Date.UTC(2026, 10, 28, 4, 0, 0);
      journal.record(journalEntry(0, new Date(at), { transactionId: 'T-queued' }));
      expect(journal.backlog().waiting).toBe(1);
      expect((await journal.list({})).deliveries.map((d) => d.requestId)).toEqual(['req-0']);
      journal.record(journalEntry(1, new Date(at + 1), { transactionId: 'T-next' }));
      expect((await journal.get('req-1'))?.transactionId).toBe('T-next');
      journal.record(journalEntry(2, new Date(at + 2), { transactionId: 'T-last' }));
      expect((await journal.list({ transactionId: 'T-last' })).deliveries).toHaveLength(1);
      expect(journal.backlog().waiting).toBe(0);
    } finally {
      await journal.close();
      await database.close();
    }
  });

  it('entries journalled with random ids get time-ordered ones (migration 0012): listed, searched, paged and pruned in time order, their replays still linked', async () => {
    const database = await openTestDatabase<any>(name);
    const at = Date.UTC(2026, 10, 24, 12, 0, 0);
    const legacy = ['9f8e7d6c-5b4a-4321-8fed-cba987654321', '01234567-89ab-4cde-8f01-23456789abcd', 'ffffffff-ffff-4fff-bfff-ffffffffffff'];
    await migrateWithEarlierEntries(database.db, '0012', [
      { id: legacy[0], request_id: 'req-old-0', received_at: at, store_id: 's-1', status: 500 },
      { id: legacy[1], request_id: 'req-old-1', received_at: at + 2_000, store_id: 's-1' },
      { id: legacy[2], request_id: 'req-old-2', received_at: at + 4_000, store_id: 's-1', replay_of: legacy[0] },
    ]);
    const stored = await database.db
      .selectFrom('gw_deliveries')
      .select(['id', 'received_at', 'replay_of'])
      .orderBy('received_at')
      .execute();
    expect(stored.map((r) => r.id)).toEqual(
      stored.map((r) => expect.stringMatching(new RegExp(`^${idFloor(Number(r.received_at))}-00000-[0-9a-f]{12}$`))),
    );
    expect(stored[2]!.replay_of).toBe(stored[0]!.id);
    const indexes = await database.db.executeQuery<{ name: string }>(
      CompiledQuery.raw(
        name === 'sqlite'
          ? "select name from sqlite_master where type = 'index' and tbl_name = 'gw_deliveries'"
          : "select indexname as name from pg_indexes where tablename = 'gw_deliveries' and schemaname = current_schema()",
      ),
    );
    expect(indexes.rows.map((r) => r.name)).toContain('gw_deliveries_replay_idx');
    expect(indexes.rows.map((r) => r.name)).not.toContain('gw_deliveries_received_idx');

    let now = new Date(at + 10_000);
    const journal = await createDeliveryJournal({
      database,
      masterKey: randomBytes(32),
      flushMs: 60_000,
      searchWindow: 1,
      searchWindows: 1,
      retentionDays: 1,
      now: () => now,
    });
    try {
      journal.record(journalEntry(1, new Date(at + 1_000), { storeId: 's-1' }));
      journal.record(journalEntry(3, new Date(at + 3_000), { storeId: 's-1' }));
      journal.record(journalEntry(5, new Date(at + 5_000), { storeId: 's-2' }));
      await journal.flush();
      expect((await journal.list({})).deliveries.map((d) => d.requestId)).toEqual([
        'req-5',
        'req-old-2',
        'req-3',
        'req-old-1',
        'req-1',
        'req-old-0',
      ]);
      expect((await journal.list({ since: new Date(at + 2_000), until: new Date(at + 4_000) })).deliveries.map((d) => d.requestId)).toEqual(
        ['req-3', 'req-old-1'],
      );
      // A search one entry a window, one window a page, followed to its end.
      const pages: string[][] = [];
      let cursor: string | undefined;
      do {
        const page = await journal.list({ store: 's-1', cursor });
        pages.push(page.deliveries.map((d) => d.requestId));
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      expect(pages.flat()).toEqual(['req-old-2', 'req-3', 'req-old-1', 'req-1', 'req-old-0']);
      expect((await journal.replaysOf(stored[0]!.id)).map((d) => d.requestId)).toEqual(['req-old-2']);
      // A day later: everything received before the cutoff goes, old ids and new alike.
      now = new Date(at + 24 * 60 * 60 * 1000 + 2_500);
      expect(await journal.prune()).toBe(3);
      expect((await journal.list({})).deliveries.map((d) => d.requestId)).toEqual(['req-5', 'req-old-2', 'req-3']);
    } finally {
      await journal.close();
      await database.close();
    }
  });
});
