import { randomBytes } from 'node:crypto';
import { openTestDatabase, testDialects } from '@loyalty-gateway/storage/testing';
import { describe, expect, it, vi } from 'vitest';
import { gatewayMigrations } from '../stores/gateway-migrations.js';
import { journalEntry, migrateWithEarlierEntries, openJournalFile } from '../testing/journal-entries.js';
import { createDeliveryJournal } from './delivery-journal.js';
import { idRegion } from './journal-ids.js';

describe.each(testDialects())("the journal's pruning ($name)", ({ name }) => {
  it('prunes entries older than the retention and keeps at most maxPerConnection per connection, newest kept', async () => {
    const database = await openTestDatabase<any>(name, gatewayMigrations);
    let now = new Date('2026-11-25T12:00:00Z');
    const journal = await createDeliveryJournal({
      database,
      masterKey: randomBytes(32),
      retentionDays: 14,
      maxPerConnection: 3,
      flushMs: 60_000,
      now: () => now,
    });
    try {
      const day = 24 * 60 * 60 * 1000;
      journal.record(journalEntry(0, new Date(now.getTime() - 15 * day)));
      for (let n = 1; n <= 5; n += 1) journal.record(journalEntry(n, new Date(now.getTime() - n * 60_000)));
      journal.record(journalEntry(9, new Date(now.getTime() - 60_000), { connectionId: 'c-2' }));
      await journal.flush();
      expect(await journal.prune()).toBe(3); // one too old, two beyond c-1's three newest
      const left = (await journal.list({ limit: 10 })).deliveries.map((d) => d.requestId);
      expect(left.sort()).toEqual(['req-1', 'req-2', 'req-3', 'req-9']);
      now = new Date(now.getTime() + 15 * day);
      expect(await journal.prune()).toBe(4);
    } finally {
      await journal.close();
      await database.close();
    }
  });

  it('lists and prunes by connection the entries journalled before connection regions (migration 0009) with the new ones, without rewriting them', async () => {
    const database = await openTestDatabase<any>(name);
    const at = Date.UTC(2026, 10, 28, 2, 0, 0);
    await migrateWithEarlierEntries(database.db, '0009', [
      { id: 'old-1', request_id: 'req-old-1', received_at: at, connection_id: 'c-1', vendor: 'acme-pos', store_id: 's-1' },
      { id: 'old-2', request_id: 'req-old-2', received_at: at + 1, connection_id: 'c-2', vendor: 'acme-pos', store_id: 's-2' },
      { id: 'old-3', request_id: 'req-old-3', received_at: at + 2, connection_id: 'c-1', vendor: 'acme-pos', store_id: 's-1' },
      { id: 'old-4', request_id: 'req-old-4', received_at: at + 3, connection_id: null, status: 401 },
    ]);
    const journal = await createDeliveryJournal({
      database,
      masterKey: randomBytes(32),
      flushMs: 60_000,
      maxPerConnection: 3,
      now: () => new Date(at + 60_000),
    });
    try {
      journal.record(journalEntry(1, new Date(at + 1000)));
      journal.record(journalEntry(2, new Date(at + 2000), { connectionId: 'c-2' }));
      journal.record(journalEntry(3, new Date(at + 3000), { connectionId: null, status: 401, outcome: 'unknown_connection' }));
      await journal.flush();
      const stored = await database.db
        .selectFrom('gw_deliveries')
        .select(['request_id', 'connection_region'])
        .orderBy('received_at')
        .execute();
      const number = (value: unknown) => (value === null ? null : Number(value));
      expect(stored.map((r) => [r.request_id, number(r.connection_region)])).toEqual([
        ['req-old-1', null],
        ['req-old-2', null],
        ['req-old-3', null],
        ['req-old-4', null],
        ['req-1', idRegion('c-1')],
        ['req-2', idRegion('c-2')],
        ['req-3', null],
      ]);
      const ofConnection = async (connectionId: string) => (await journal.list({ connectionId })).deliveries.map((d) => d.requestId);
      expect(await ofConnection('c-1')).toEqual(['req-1', 'req-old-3', 'req-old-1']);
      expect(await ofConnection('c-2')).toEqual(['req-2', 'req-old-2']);
      expect(await ofConnection('c-3')).toEqual([]);
      // c-1 has four entries, old and new: its oldest goes; c-2 and the unresolved ones stay.
      journal.record(journalEntry(4, new Date(at + 4000)));
      await journal.flush();
      expect(await journal.prune()).toBe(1);
      expect(await ofConnection('c-1')).toEqual(['req-4', 'req-1', 'req-old-3']);
      expect(await ofConnection('c-2')).toEqual(['req-2', 'req-old-2']);
      expect((await journal.list({ status: 401 })).deliveries.map((d) => d.requestId)).toEqual(['req-3', 'req-old-4']);
      // Pages run across the two: the cursor of a new entry continues into the old ones.
      const first = await journal.list({ connectionId: 'c-1', limit: 2 });
      expect(first.deliveries.map((d) => d.requestId)).toEqual(['req-4', 'req-1']);
      const second = await journal.list({ connectionId: 'c-1', limit: 2, cursor: first.nextCursor! });
      expect(second.deliveries.map((d) => d.requestId)).toEqual(['req-old-3']);
      expect(second.nextCursor).toBeNull();
      // Once the new entries alone fill the bound, the old ones go with the oldest new one.
      journal.record(journalEntry(5, new Date(at + 5000)));
      journal.record(journalEntry(6, new Date(at + 6000)));
      await journal.flush();
      expect(await journal.prune()).toBe(2);
      expect(await ofConnection('c-1')).toEqual(['req-6', 'req-5', 'req-4']);
    } finally {
      await journal.close();
      await database.close();
    }
  });
});

describe("the journal's pruning on a SQLite file", () => {
  it("prunes through the writer thread's connection, never holding the event loop, in chunks", async () => {
    const { database, file, remove } = await openJournalFile();
    let now = new Date('2026-11-25T12:00:00Z');
    const journal = await createDeliveryJournal({
      database,
      masterKey: randomBytes(32),
      flushMs: 60_000,
      sqliteFile: file,
      retentionDays: 14,
      maxPerConnection: 4_000,
      maxBacklog: 20_000,
      now: () => now,
    });
    // Every statement of the main connection goes through its executor (the query builders' too).
    const mainConnection = vi.spyOn(database.db.getExecutor(), 'executeQuery');
    try {
      const day = 24 * 60 * 60 * 1000;
      // 6,000 too old (more than one delete statement), 5,000 recent on c-1 (1,000 over its bound), 10 on c-2.
      for (let n = 0; n < 6_000; n += 1) journal.record(journalEntry(n, new Date(now.getTime() - 15 * day + n)));
      for (let n = 0; n < 5_000; n += 1) journal.record(journalEntry(10_000 + n, new Date(now.getTime() - day + n)));
      for (let n = 0; n < 10; n += 1) journal.record(journalEntry(20_000 + n, new Date(now.getTime() - day + n), { connectionId: 'c-2' }));
      await journal.flush();
      mainConnection.mockClear();
      expect(await journal.prune()).toBe(7_000);
      expect(mainConnection).not.toHaveBeenCalled();
      const left = await journal.list({ limit: 500, connectionId: 'c-1' });
      expect(left.deliveries[0]?.requestId).toBe('req-14999');
      const counts = await database.db
        .selectFrom('gw_deliveries')
        .select(['connection_id', (eb) => eb.fn.countAll<number>().as('n')])
        .groupBy('connection_id')
        .orderBy('connection_id')
        .execute();
      expect(counts.map((c) => [c.connection_id, Number(c.n)])).toEqual([
        ['c-1', 4_000],
        ['c-2', 10],
      ]);
      // The oldest kept on c-1 is the 4,000th newest.
      const oldest = await database.db
        .selectFrom('gw_deliveries')
        .select('request_id')
        .where('connection_id', '=', 'c-1')
        .orderBy('received_at')
        .limit(1)
        .executeTakeFirstOrThrow();
      expect(oldest.request_id).toBe('req-11000');
      now = new Date(now.getTime() + 15 * day);
      expect(await journal.prune()).toBe(4_010);
    } finally {
      mainConnection.mockRestore();
      await journal.close();
      await database.close();
      remove();
    }
  });
});
