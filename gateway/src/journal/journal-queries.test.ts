import { randomBytes } from 'node:crypto';
import { openTestDatabase, testDialects } from '@loyalty-gateway/storage/testing';
import { CompiledQuery } from 'kysely';
import { describe, expect, it } from 'vitest';
import { gatewayMigrations } from '../stores/gateway-migrations.js';
import { journalEntry, migrateWithEarlierEntries } from '../testing/journal-entries.js';
import { queryPlan } from '../testing/query-plan.js';
import { createDeliveryJournal } from './delivery-journal.js';
import { timeOrderedUuid } from '../http/request-id.js';
import { idFloor, idRegion, requestKey, timeOrderedId, transactionKey } from './journal-ids.js';
import { deliveriesQuery, newestByRequestIdQuery, replaysQuery, windowEndQuery } from './journal-queries.js';

describe.each(testDialects())("the journal's lookups ($name)", ({ name }) => {
  it('finds a transaction id through its key, and entries journalled before the key existed (migration 0007) through their own index', async () => {
    const database = await openTestDatabase<any>(name);
    // The schema as it was before 0007, with one entry written then (no transaction_key column).
    const at = Date.UTC(2026, 10, 27, 5, 0, 0);
    await migrateWithEarlierEntries(database.db, '0007', [{ id: 'old-1', request_id: 'req-old', received_at: at, transaction_id: 'T-7' }]);
    const journal = await createDeliveryJournal({ database, masterKey: randomBytes(32), flushMs: 60_000 });
    try {
      journal.record(journalEntry(1, new Date(at + 1000), { transactionId: 'T-7' }));
      journal.record(journalEntry(2, new Date(at + 2000), { transactionId: 'T-8' }));
      await journal.flush();
      expect((await journal.list({ transactionId: 'T-7' })).deliveries.map((d) => d.requestId)).toEqual(['req-1', 'req-old']);
      expect((await journal.list({ transactionId: 'T-8' })).deliveries.map((d) => d.requestId)).toEqual(['req-2']);
      expect((await journal.list({ transactionId: 'T-9' })).deliveries).toEqual([]);
      const stored = await database.db
        .selectFrom('gw_deliveries')
        .select(['request_id', 'transaction_key'])
        .orderBy('received_at')
        .execute();
      expect(stored.map((r) => [r.request_id, r.transaction_key === null ? null : Number(r.transaction_key)])).toEqual([
        ['req-old', null],
        ['req-1', transactionKey('T-7')],
        ['req-2', transactionKey('T-8')],
      ]);
      // Two ids whose keys collide are told apart by the id itself.
      const [a, b] = collidingIds();
      journal.record(journalEntry(3, new Date(at + 3000), { transactionId: a }));
      journal.record(journalEntry(4, new Date(at + 4000), { transactionId: b }));
      await journal.flush();
      expect((await journal.list({ transactionId: a })).deliveries.map((d) => d.requestId)).toEqual(['req-3']);
      expect((await journal.list({ transactionId: b })).deliveries.map((d) => d.requestId)).toEqual(['req-4']);
    } finally {
      await journal.close();
      await database.close();
    }
  });

  it('finds a transaction id or a request id through its region and key, and entries journalled before regions (migration 0008) through their keys and ids', async () => {
    const database = await openTestDatabase<any>(name);
    // The schema as it was before 0008, with two entries written then: a key, no region.
    const at = Date.UTC(2026, 10, 27, 21, 0, 0);
    await migrateWithEarlierEntries(
      database.db,
      '0008',
      (['T-5', 'T-6'] as const).map((transactionId, n) => ({
        id: `keyed-${n + 1}`,
        request_id: `req-keyed-${n + 1}`,
        received_at: at,
        transaction_id: transactionId,
        transaction_key: transactionKey(transactionId),
      })),
    );
    const journal = await createDeliveryJournal({ database, masterKey: randomBytes(32), flushMs: 60_000 });
    try {
      journal.record(journalEntry(1, new Date(at + 1000), { transactionId: 'T-5' }));
      journal.record(journalEntry(2, new Date(at + 2000), { transactionId: 'T-7' }));
      journal.record(journalEntry(3, new Date(at + 3000)));
      await journal.flush();
      expect((await journal.list({ transactionId: 'T-5' })).deliveries.map((d) => d.requestId)).toEqual(['req-1', 'req-keyed-1']);
      expect((await journal.list({ transactionId: 'T-6' })).deliveries.map((d) => d.requestId)).toEqual(['req-keyed-2']);
      expect((await journal.list({ transactionId: 'T-7' })).deliveries.map((d) => d.requestId)).toEqual(['req-2']);
      // By request id: the newest entry carrying it, written before or after the migration.
      journal.record(journalEntry(4, new Date(at + 4000), { requestId: 'req-keyed-2' }));
      await journal.flush();
      // Its id was given the time-ordered layout by migration 0012.
      expect((await journal.get('req-keyed-1'))?.id).toMatch(new RegExp(`^${idFloor(at)}-00000-[0-9a-f]{12}$`));
      expect((await journal.get('req-keyed-2'))?.requestId).toBe('req-keyed-2');
      expect((await journal.get('req-keyed-2'))?.receivedAt).toBe(new Date(at + 4000).toISOString());
      expect((await journal.get('req-1'))?.transactionId).toBe('T-5');
      expect(await journal.get('req-none')).toBeNull();
      const stored = await database.db
        .selectFrom('gw_deliveries')
        .select(['request_id', 'transaction_region', 'request_region', 'request_key'])
        .orderBy('received_at')
        .orderBy('request_id')
        .execute();
      const number = (value: unknown) => (value === null ? null : Number(value));
      expect(stored.map((r) => [r.request_id, number(r.transaction_region), number(r.request_region), number(r.request_key)])).toEqual([
        ['req-keyed-1', null, null, null],
        ['req-keyed-2', null, null, null],
        ['req-1', idRegion('T-5'), idRegion('req-1'), requestKey('req-1')],
        ['req-2', idRegion('T-7'), idRegion('req-2'), requestKey('req-2')],
        ['req-3', null, idRegion('req-3'), requestKey('req-3')],
        ['req-keyed-2', null, idRegion('req-keyed-2'), requestKey('req-keyed-2')],
      ]);
    } finally {
      await journal.close();
      await database.close();
    }
  });

  it('finds an entry by a generated request id through its time, not the request index; any other id, and those journalled before, through their keys (migration 0016)', async () => {
    const database = await openTestDatabase<any>(name);
    const at = Date.UTC(2026, 10, 29, 9, 0, 0);
    const before = timeOrderedUuid(at - 5000);
    // Journalled before 0016 with a UUIDv7 of its own millisecond: it has its key, and keeps it.
    await migrateWithEarlierEntries(database.db, '0016', [
      {
        id: timeOrderedId(at - 5000),
        request_id: before,
        received_at: at - 5000,
        request_region: idRegion(before),
        request_key: requestKey(before),
      },
    ]);
    const journal = await createDeliveryJournal({ database, masterKey: randomBytes(32), flushMs: 60_000 });
    try {
      const generated = timeOrderedUuid(at);
      const sameMs = timeOrderedUuid(at); // another request of the same millisecond
      const given = timeOrderedUuid(at - 60_000); // a caller's UUIDv7 of another time
      journal.record(journalEntry(1, new Date(at), { requestId: generated }));
      journal.record(journalEntry(2, new Date(at), { requestId: sameMs }));
      journal.record(journalEntry(3, new Date(at + 1), { requestId: given }));
      journal.record(journalEntry(4, new Date(at + 2), { requestId: 'vendor-trace-9' }));
      await journal.flush();
      const stored = await database.db.selectFrom('gw_deliveries').select(['request_id', 'request_region', 'request_key']).execute();
      const keyOf = new Map(stored.map((r) => [r.request_id, r.request_key === null ? null : Number(r.request_key)]));
      expect([generated, sameMs, given, 'vendor-trace-9', before].map((id) => keyOf.get(id))).toEqual([
        null,
        null,
        requestKey(given),
        requestKey('vendor-trace-9'),
        requestKey(before),
      ]);
      expect(stored.every((r) => r.request_region !== null)).toBe(true);
      for (const id of [generated, sameMs, given, 'vendor-trace-9', before]) {
        expect((await journal.get(id))?.requestId).toBe(id);
        expect((await journal.list({ requestId: id })).deliveries.map((d) => d.requestId)).toEqual([id]);
      }
      expect(await journal.get(timeOrderedUuid(at))).toBeNull();
    } finally {
      await journal.close();
      await database.close();
    }
  });

  it('the lookups by transaction id, by request id, by connection and of replays read their indexes, never the whole table', async () => {
    const database = await openTestDatabase<any>(name, gatewayMigrations);
    const journal = await createDeliveryJournal({ database, masterKey: randomBytes(32), flushMs: 60_000 });
    try {
      // A journal of some size over 40 connections, its statistics taken: the plan is the one a real journal gets.
      const at = Date.UTC(2026, 10, 27, 22, 0, 0);
      for (let n = 0; n < 2_000; n += 1)
        journal.record(journalEntry(n, new Date(at + n), { transactionId: `T-${n}`, connectionId: `c-${n % 40}` }));
      await journal.flush();
      await database.db.executeQuery(CompiledQuery.raw('analyze'));
      for (const filter of [{ transactionId: 'T-1' }, { transactionId: 'T-1', store: 's-1', since: new Date(0) }]) {
        const plan = await queryPlan(database.db, name, deliveriesQuery(database.db, filter, 50).compile());
        expect(plan).toContain('gw_deliveries_transaction_region_idx');
        expect(plan).toContain('gw_deliveries_transaction_keyed_idx');
        expect(plan).toContain('gw_deliveries_transaction_unkeyed_idx');
        expect(plan).not.toMatch(/SCAN gw_deliveries|Seq Scan/);
      }
      // A page after a cursor, with a filter no index serves: a range of the time index, not the whole of it.
      const cursor = Buffer.from(`${at + 1500}|${idFloor(at + 1500)}`).toString('base64url');
      const paged = await queryPlan(database.db, name, deliveriesQuery(database.db, { store: 's-1', cursor }, 50).compile());
      expect(paged).toMatch(/USING INDEX sqlite_autoindex_gw_deliveries_1 \(id<\?\)|Index Cond: \(id < /);
      // … and a search window's end: the primary key alone (its ids begin with their time, migration 0012).
      const windowEnd = await queryPlan(database.db, name, windowEndQuery(database.db, { store: 's-1' }, cursor, 20).compile());
      expect(windowEnd).toMatch(
        /USING COVERING INDEX sqlite_autoindex_gw_deliveries_1 \(id<\?\)|Index Only Scan Backward using gw_deliveries_pkey/,
      );
      expect(windowEnd).not.toMatch(/TEMP B-TREE|Sort/);
      // A delivery's replays (every delivery's page): their partial index (migration 0010).
      const replays = await queryPlan(database.db, name, replaysQuery(database.db, 'some-entry').compile());
      expect(replays).toContain('gw_deliveries_replay_idx');
      expect(replays).not.toMatch(/SCAN gw_deliveries(?! USING)|Seq Scan/);
      // A connection's entries: its region's run of the connections' index (migration 0009).
      const byConnection = await queryPlan(database.db, name, deliveriesQuery(database.db, { connectionId: 'c-1' }, 50).compile());
      expect(byConnection).toContain('gw_deliveries_connection_region_idx');
      expect(byConnection).not.toMatch(/SCAN gw_deliveries(?! USING)|Seq Scan/);
      // … and those journalled before it: their partial index.
      const before = await queryPlan(database.db, name, deliveriesQuery(database.db, { connectionId: 'c-1' }, 50, true).compile());
      expect(before).toContain('gw_deliveries_connection_unregioned_idx');
      expect(before).not.toMatch(/SCAN gw_deliveries(?! USING)|Seq Scan/);
      const plan = await queryPlan(database.db, name, newestByRequestIdQuery(database.db, 'req-1').compile());
      expect(plan).toContain('gw_deliveries_request_key_idx');
      expect(plan).toContain('gw_deliveries_request_unregioned_idx');
      expect(plan).not.toMatch(/SCAN gw_deliveries|Seq Scan/);
      // A request id that carries a time (a UUIDv7, as generated): also that millisecond's range of the primary key (migration 0016).
      const timed = await queryPlan(
        database.db,
        name,
        newestByRequestIdQuery(database.db, '019ad0f4-6c00-7abc-8def-0123456789ab').compile(),
      );
      expect(timed).toContain('gw_deliveries_request_key_idx');
      expect(timed).toContain('gw_deliveries_request_unregioned_idx');
      expect(timed).toMatch(/sqlite_autoindex_gw_deliveries_1 \(id>\? AND id<\?\)|gw_deliveries_pkey/);
      expect(timed).not.toMatch(/SCAN gw_deliveries|Seq Scan/);
    } finally {
      await journal.close();
      await database.close();
    }
  });
});

/** Two different transaction ids with the same key (found by search: 32 bits are not collision-resistant). */
function collidingIds(): [string, string] {
  const seen = new Map<number, string>();
  for (let n = 0; ; n += 1) {
    const id = `T-${n.toString(36)}`;
    const other = seen.get(transactionKey(id));
    if (other !== undefined) return [other, id];
    seen.set(transactionKey(id), id);
  }
}
