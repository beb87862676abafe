import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createDatabase, migrate, type MigrationSet } from '@loyalty-gateway/storage';
import { openTestDatabase, testDialects } from '@loyalty-gateway/storage/testing';
import { CompiledQuery, type Kysely } from 'kysely';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { gatewayMigrations } from '../stores/gateway-migrations.js';
import { queryPlan } from '../testing/query-plan.js';
import {
  chunkRows,
  createDeliveryJournal,
  deliveriesQuery,
  idFloor,
  idRegion,
  newestByRequestIdQuery,
  replaysQuery,
  requestKey,
  transactionKey,
  windowEndQuery,
  type Delivery,
  type DeliveryFilter,
  type DeliveryInput,
  type DeliveryJournal,
  type DeliveryPage,
  type Row,
} from './delivery-journal.js';

const entry = (n: number, at: Date, overrides: Partial<DeliveryInput> = {}): DeliveryInput => ({
  requestId: `req-${n}`,
  receivedAt: at,
  method: 'POST',
  route: '/webhooks/generic',
  vendor: 'acme-pos',
  storeId: 's-1',
  connectionId: 'c-1',
  status: 200,
  outcome: 'processed',
  durationMs: 3,
  ...overrides,
});

describe.each(testDialects())('delivery journal store ($name)', ({ name }) => {
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
      journal.record(entry(0, new Date(now.getTime() - 15 * day)));
      for (let n = 1; n <= 5; n += 1) journal.record(entry(n, new Date(now.getTime() - n * 60_000)));
      journal.record(entry(9, new Date(now.getTime() - 60_000), { connectionId: 'c-2' }));
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
      for (let n = 0; n < 5; n += 1) journal.record(entry(n, new Date()));
      expect(journal.backlog()).toMatchObject({ waiting: 2, dropped: 3 });
      await journal.flush();
      expect(journal.backlog().waiting).toBe(0);
      await database.close();
      journal.record(entry(7, new Date()));
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
      journal.record(entry(0, new Date(at), { transactionId: 'T-queued' }));
      expect(journal.backlog().waiting).toBe(1);
      expect((await journal.list({})).deliveries.map((d) => d.requestId)).toEqual(['req-0']);
      journal.record(entry(1, new Date(at + 1), { transactionId: 'T-next' }));
      expect((await journal.get('req-1'))?.transactionId).toBe('T-next');
      journal.record(entry(2, new Date(at + 2), { transactionId: 'T-last' }));
      expect((await journal.list({ transactionId: 'T-last' })).deliveries).toHaveLength(1);
      expect(journal.backlog().waiting).toBe(0);
    } finally {
      await journal.close();
      await database.close();
    }
  });

  it('every field is read back as recorded, in batches of any size; a NUL character or a lone surrogate (which PostgreSQL cannot hold) does not cost the batch its entries', async () => {
    const database = await openTestDatabase<any>(name, gatewayMigrations);
    const errors: unknown[] = [];
    const journal = await createDeliveryJournal({ database, masterKey: randomBytes(32), flushMs: 60_000, onError: (e) => errors.push(e) });
    try {
      const at = Date.UTC(2026, 10, 27, 3, 0, 0);
      const odd = `quote ' "double" back\\slash \u00e9t\u00e9 \ud83d\ude00 {"json":[1]} \n line`;
      journal.record(
        entry(0, new Date(at), {
          eventType: 'sale.completed',
          eventId: 'evt-0',
          transactionId: odd,
          refundId: 'r-1',
          status: 422,
          outcome: undefined,
          warning: 'a warning',
          fields: [{ path: 'transaction.total', message: 'must be > 0' }],
          durationMs: 12.6,
          skewSeconds: -3.4,
        }),
        Buffer.from('{"a":1}'),
      );
      journal.record(
        entry(1, new Date(at + 1), { transactionId: 'nul\u0000inside', vendor: undefined, storeId: undefined, connectionId: undefined }),
      );
      journal.record(entry(2, new Date(at + 2), { transactionId: 'lone \ud800 surrogate', eventId: `${'x'.repeat(254)}\ud83d\ude00` }));
      for (let n = 3; n < 450; n += 1) journal.record(entry(n, new Date(at + n), { transactionId: `T-${n}` }));
      await journal.flush();
      expect(errors).toEqual([]);
      expect((await journal.list({ limit: 500 })).deliveries).toHaveLength(450);
      const first = (await journal.get('req-0'))!;
      expect(first).toMatchObject({
        requestId: 'req-0',
        receivedAt: new Date(at).toISOString(),
        method: 'POST',
        route: '/webhooks/generic',
        vendor: 'acme-pos',
        storeId: 's-1',
        connectionId: 'c-1',
        eventType: 'sale.completed',
        eventId: 'evt-0',
        transactionId: odd,
        refundId: 'r-1',
        status: 422,
        outcome: null,
        warning: 'a warning',
        fields: [{ path: 'transaction.total', message: 'must be > 0' }],
        durationMs: 13,
        skewSeconds: -3,
        bodySha256: '015abd7f5cc57a2dd94b7590f04ad8084273905ee33ec5cebeae62276a97f862',
        requestKept: false,
        replayOf: null,
        replayedBy: null,
      });
      expect(await journal.get('req-1')).toMatchObject({
        transactionId: 'nul\ufffdinside',
        vendor: null,
        storeId: null,
        connectionId: null,
      });
      expect(await journal.get('req-2')).toMatchObject({ transactionId: 'lone \ufffd surrogate', eventId: `${'x'.repeat(254)}\ufffd` });
      expect((await journal.list({ transactionId: 'T-449' })).deliveries.map((d) => d.requestId)).toEqual(['req-449']);
    } finally {
      await journal.close();
      await database.close();
    }
  });

  it('finds a transaction id through its key, and entries journalled before the key existed (migration 0007) through their own index', async () => {
    const database = await openTestDatabase<any>(name);
    // The schema as it was before 0007, with one entry written then (no transaction_key column).
    const at = Date.UTC(2026, 10, 27, 5, 0, 0);
    await migrateWithEarlierEntries(database.db, '0007', [{ id: 'old-1', request_id: 'req-old', received_at: at, transaction_id: 'T-7' }]);
    const journal = await createDeliveryJournal({ database, masterKey: randomBytes(32), flushMs: 60_000 });
    try {
      journal.record(entry(1, new Date(at + 1000), { transactionId: 'T-7' }));
      journal.record(entry(2, new Date(at + 2000), { transactionId: 'T-8' }));
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
      journal.record(entry(3, new Date(at + 3000), { transactionId: a }));
      journal.record(entry(4, new Date(at + 4000), { transactionId: b }));
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
      journal.record(entry(1, new Date(at + 1000), { transactionId: 'T-5' }));
      journal.record(entry(2, new Date(at + 2000), { transactionId: 'T-7' }));
      journal.record(entry(3, new Date(at + 3000)));
      await journal.flush();
      expect((await journal.list({ transactionId: 'T-5' })).deliveries.map((d) => d.requestId)).toEqual(['req-1', 'req-keyed-1']);
      expect((await journal.list({ transactionId: 'T-6' })).deliveries.map((d) => d.requestId)).toEqual(['req-keyed-2']);
      expect((await journal.list({ transactionId: 'T-7' })).deliveries.map((d) => d.requestId)).toEqual(['req-2']);
      // By request id: the newest entry carrying it, written before or after the migration.
      journal.record(entry(4, new Date(at + 4000), { requestId: 'req-keyed-2' }));
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
      journal.record(entry(1, new Date(at + 1_000), { storeId: 's-1' }));
      journal.record(entry(3, new Date(at + 3_000), { storeId: 's-1' }));
      journal.record(entry(5, new Date(at + 5_000), { storeId: 's-2' }));
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
      journal.record(entry(1, new Date(at + 1000)));
      journal.record(entry(2, new Date(at + 2000), { connectionId: 'c-2' }));
      journal.record(entry(3, new Date(at + 3000), { connectionId: null, status: 401, outcome: 'unknown_connection' }));
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
      journal.record(entry(4, new Date(at + 4000)));
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
      journal.record(entry(5, new Date(at + 5000)));
      journal.record(entry(6, new Date(at + 6000)));
      await journal.flush();
      expect(await journal.prune()).toBe(2);
      expect(await ofConnection('c-1')).toEqual(['req-6', 'req-5', 'req-4']);
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
        journal.record(entry(n, new Date(at + n), { transactionId: `T-${n}`, connectionId: `c-${n % 40}` }));
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
      expect(plan).toContain('gw_deliveries_request_region_idx');
      expect(plan).toContain('gw_deliveries_request_unregioned_idx');
      expect(plan).not.toMatch(/SCAN gw_deliveries|Seq Scan/);
    } finally {
      await journal.close();
      await database.close();
    }
  });

  it('a filter no index serves searches at most searchWindow × searchWindows entries a page; following nextCursor finds every match, in order, once', async () => {
    const database = await openTestDatabase<any>(name, gatewayMigrations);
    const journal = await createDeliveryJournal({
      database,
      masterKey: randomBytes(32),
      flushMs: 60_000,
      searchWindow: 7,
      searchWindows: 3,
    });
    try {
      // 200 entries, several to a millisecond (the order's ties go by journal id); two stores, statuses 200, 401 and 500.
      const at = Date.UTC(2026, 10, 28, 3, 0, 0);
      const written = fc.sample(
        fc.record({
          dt: fc.integer({ min: 0, max: 3 }),
          store: fc.constantFrom('s-1', 's-2'),
          status: fc.constantFrom(200, 200, 200, 401, 500),
        }),
        { numRuns: 200, seed: 20261128 },
      );
      let time = at;
      for (const [n, w] of written.entries()) {
        time += w.dt;
        journal.record(
          entry(n, new Date(time), { storeId: w.store, status: w.status, outcome: w.status === 200 ? 'processed' : `code-${w.status}` }),
        );
      }
      await journal.flush();
      const everything = await allPages(journal, {}, 500);
      expect(everything.pages).toBe(1);
      const newestFirst = everything.deliveries;
      expect(newestFirst).toHaveLength(200);
      // No page of a scanning filter looks further back than 21 entries below its cursor.
      const filters = [
        { status: 500 },
        { store: 's-2', status: 401 },
        { code: 'code-401' },
        { vendor: 'acme-pos', limit: 4 },
        { store: 's-1', since: new Date(at + 100), until: new Date(at + 250) },
        { store: 'nowhere' },
      ];
      for (const filter of filters) {
        const expected = newestFirst.filter(
          (d) =>
            (filter.status === undefined || d.status === filter.status) &&
            (filter.store === undefined || d.storeId === filter.store) &&
            (filter.code === undefined || d.outcome === filter.code) &&
            (filter.since === undefined || Date.parse(d.receivedAt) >= filter.since.getTime()) &&
            (filter.until === undefined || Date.parse(d.receivedAt) < filter.until.getTime()),
        );
        const paged = await allPages(journal, filter, filter.limit ?? 5);
        expect(paged.deliveries.map((d) => d.id)).toEqual(expected.map((d) => d.id));
        for (const page of paged.each) {
          if (page.searchedBackTo === null) continue;
          // Stopped at its bound: its cursor is the 21st entry it examined (below its own cursor and `until`), and it examined no further.
          const oldestExamined = newestFirst.findIndex((d) => d.receivedAt === page.searchedBackTo && cursorOf(d) === page.nextCursor);
          const firstExamined = Math.max(
            page.startIndex + 1,
            filter.until ? newestFirst.findIndex((d) => Date.parse(d.receivedAt) < filter.until!.getTime()) : 0,
          );
          expect(oldestExamined - firstExamined).toBe(20);
          expect(page.deliveries.length).toBeLessThanOrEqual(filter.limit ?? 5);
        }
      }
      // A store that never sent: an empty first page that says how far back it looked, and a way on.
      const first = await journal.list({ store: 'nowhere' });
      expect(first.deliveries).toEqual([]);
      expect(first.searchedBackTo).toBe(newestFirst[20]!.receivedAt);
      expect(first.nextCursor).toBe(cursorOf(newestFirst[20]!));
      // Filters an index serves are answered in one statement, whole.
      expect((await journal.list({ connectionId: 'c-1', limit: 500 })).deliveries).toHaveLength(200);
      expect((await journal.list({ connectionId: 'c-1', status: 999 })).searchedBackTo).toBeNull();
    } finally {
      await journal.close();
      await database.close();
    }
  });

  it('kept requests too large for one statement together are written in several, each read back whole', async () => {
    const database = await openTestDatabase<any>(name, gatewayMigrations);
    const errors: unknown[] = [];
    // 100 KiB bodies, sealed to ~140,000 characters each, at most 300,000 characters per statement.
    const journal = await createDeliveryJournal({
      database,
      masterKey: randomBytes(32),
      flushMs: 60_000,
      maxStatementChars: 300_000,
      onError: (e) => errors.push(e),
    });
    try {
      const bodies = Array.from({ length: 7 }, (_, n) => Buffer.from(`{"n":${n},"pad":"${'x'.repeat(100 * 1024)}"}`));
      bodies.forEach((body, n) =>
        journal.record(entry(n, new Date(Date.UTC(2026, 10, 27, 4, 0, n)), { status: 500, outcome: 'internal_error' }), body, {
          body,
          headers: { 'x-service-vendor': 'acme-pos' },
        }),
      );
      await journal.flush();
      expect(errors).toEqual([]);
      for (const [n, body] of bodies.entries()) expect((await journal.get(`req-${n}`))?.request?.body.equals(body)).toBe(true);
    } finally {
      await journal.close();
      await database.close();
    }
  });

  it('a kept request is sealed at rest and opened only through the journal', async () => {
    const database = await openTestDatabase<any>(name, gatewayMigrations);
    const journal = await createDeliveryJournal({ database, masterKey: randomBytes(32), flushMs: 60_000 });
    try {
      const body = Buffer.from('{"secret-ish":"card 4111"}');
      journal.record(entry(1, new Date(), { status: 500, outcome: 'internal_error' }), body, {
        body,
        headers: { 'x-service-vendor': 'acme-pos' },
      });
      await journal.flush();
      const raw = await database.db.selectFrom('gw_deliveries').select('body_sealed').executeTakeFirstOrThrow();
      expect(raw.body_sealed).toMatch(/^v1:/);
      expect(raw.body_sealed).not.toContain('4111');
      expect((await journal.get('req-1'))?.request?.body.toString()).toBe(body.toString());
    } finally {
      await journal.close();
      await database.close();
    }
  });
});

/**
 * The gateway's schema as it was before migration `before`, these journal entries written then
 * (as that schema's rows; a generic POST answered 200 unless they say otherwise), then migrated to
 * the end.
 */
async function migrateWithEarlierEntries(db: Kysely<any>, before: string, entries: Array<Record<string, unknown>>): Promise<void> {
  const earlier: MigrationSet = {
    ...gatewayMigrations,
    migrations: Object.fromEntries(Object.entries(gatewayMigrations.migrations).filter(([id]) => id < before)),
  };
  await migrate(db, earlier);
  for (const row of entries) {
    await db
      .insertInto('gw_deliveries')
      .values({ method: 'POST', route: '/webhooks/generic', status: 200, duration_ms: 1, ...row })
      .execute();
  }
  await migrate(db, gatewayMigrations);
}

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

describe('transactionKey', () => {
  it('is stable (keys and regions stored by any build stay valid), a 32-bit integer, and keeps ids that arrive in order next to each other', () => {
    // '' and 'a': FNV-1a's offset basis 0x811c9dc5 in the high half, the characters in the low half.
    expect([transactionKey(''), transactionKey('a'), transactionKey('T-1'), transactionKey('foobar')]).toEqual([
      -2128871424, -2128871327, -787731151, 1062232434,
    ]);
    for (const id of ['T-1', '7c9e6679-7425-40de-944b-e07fc1f90ae7', 'x'.repeat(255), '\u00e9t\u00e9 \ud83d\ude00']) {
      const key = transactionKey(id);
      expect(Number.isInteger(key) && key >= -(2 ** 31) && key < 2 ** 31).toBe(true);
    }
    // The regions and request keys stored since migration 0008 stay valid too.
    const ids = ['', 'a', 'T-1', 'req-1', '0193a1b2-c3d4-7e5f-8a9b-000000000001', 'foobar'];
    expect(ids.map((id) => [idRegion(id), requestKey(id)])).toEqual([
      [5, -2128831035],
      [12, -468965076],
      [1, -683735935],
      [1, -619311343],
      [2, -1122482238],
      [8, -1080231576],
    ]);
    // A run of receipt numbers: the same high half, ascending low halves.
    const keys = Array.from({ length: 100 }, (_, n) => transactionKey(`R-2026-11-0042${String(n).padStart(2, '0')}`));
    expect(new Set(keys.map((k) => k >> 16)).size).toBe(1);
    expect(keys).toEqual([...keys].sort((a, b) => a - b));
    expect(new Set(keys).size).toBe(100);
  });
});

describe("chunkRows (the PostgreSQL batch statement's bound)", () => {
  it('cuts a batch in order into runs of at most maxChars characters; a row larger than that goes alone; nothing is lost', () => {
    const row = (n: number, chars: number): Row => [`id-${n}`, 'x'.repeat(chars), n];
    // Each row weighs its strings' lengths + 3 (quotes, comma) and 16 per other value.
    const rows = [row(1, 40), row(2, 40), row(3, 200), row(4, 10), row(5, 10), row(6, 10)];
    const chunks = chunkRows(rows, 120);
    expect(chunks.map((c) => c.map((r) => r[2]))).toEqual([[1], [2], [3], [4, 5, 6]]);
    expect(chunkRows(rows, 1_000).map((c) => c.length)).toEqual([6]);
    expect(chunkRows([], 100)).toEqual([]);
  });
});

describe('delivery journal on a SQLite file: written by its own thread', () => {
  it('close() writes the last batch and ends the thread even when nothing else keeps the process alive', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'lg-journal-close-'));
    try {
      const root = path.resolve(import.meta.dirname, '../../..');
      const child = spawnSync(process.execPath, ['--import', 'tsx', 'gateway/src/testing/journal-close-child.ts'], {
        cwd: root,
        env: { ...process.env, JOURNAL_FILE: path.join(dir, 'gateway.sqlite'), ENTRIES: '250' },
        encoding: 'utf8',
      });
      // Exit code 13: the process ended with close() unsettled (its writer thread does not hold the event loop).
      expect({ status: child.status, stdout: child.stdout.trim() }).toEqual({ status: 0, stdout: 'closed with 250 entries' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('batches posted to the writer thread are committed and read back through the main connection; close ends the thread', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'lg-journal-'));
    const file = path.join(dir, 'gateway.sqlite');
    const database = createDatabase<any>({ sqliteFile: file });
    await migrate(database.db, gatewayMigrations);
    const journal = await createDeliveryJournal({ database, masterKey: randomBytes(32), flushMs: 60_000, sqliteFile: file });
    try {
      // The writer's connection has storage's default page cache (not better-sqlite3's 16 MiB).
      expect((await journal.writerThread()!.ready).cacheSize).toBe(-4 * 1024);
      for (let n = 0; n < 2_500; n += 1) journal.record(entry(n, new Date(Date.UTC(2026, 10, 25, 12, 0, 0, n))));
      journal.record(entry(9_999, new Date(Date.UTC(2026, 10, 26)), { status: 500, outcome: 'internal_error' }), Buffer.from('{}'), {
        body: Buffer.from('{}'),
        headers: { 'x-service-vendor': 'acme-pos' },
      });
      await journal.flush();
      const { deliveries } = await journal.list({ limit: 3 });
      expect(deliveries.map((d) => d.requestId)).toEqual(['req-9999', 'req-2499', 'req-2498']);
      expect((await journal.get('req-9999'))?.request?.headers).toEqual({ 'x-service-vendor': 'acme-pos' });
      expect(
        Number(
          (
            await database.db
              .selectFrom('gw_deliveries')
              .select((eb) => eb.fn.countAll().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        ),
      ).toBe(2_501);
    } finally {
      await journal.close();
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("prunes through the writer thread's connection, never holding the event loop, in chunks", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'lg-journal-'));
    const file = path.join(dir, 'gateway.sqlite');
    const database = createDatabase<any>({ sqliteFile: file });
    await migrate(database.db, gatewayMigrations);
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
      for (let n = 0; n < 6_000; n += 1) journal.record(entry(n, new Date(now.getTime() - 15 * day + n)));
      for (let n = 0; n < 5_000; n += 1) journal.record(entry(10_000 + n, new Date(now.getTime() - day + n)));
      for (let n = 0; n < 10; n += 1) journal.record(entry(20_000 + n, new Date(now.getTime() - day + n), { connectionId: 'c-2' }));
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
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('runs the writer within its heap bounds and page cache; a writer thread that has died is replaced by a new one for the next batch', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'lg-journal-'));
    const file = path.join(dir, 'gateway.sqlite');
    const database = createDatabase<any>({ sqliteFile: file });
    await migrate(database.db, gatewayMigrations);
    const errors: Array<{ message: string; dropped: number }> = [];
    const journal = await createDeliveryJournal({
      database,
      masterKey: randomBytes(32),
      flushMs: 60_000,
      sqliteFile: file,
      writerResourceLimits: { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 6 },
      sqliteCacheMb: 2,
      onError: (error, dropped) => errors.push({ message: (error as Error).message, dropped }),
    });
    const count = async () =>
      Number(
        (
          await database.db
            .selectFrom('gw_deliveries')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    try {
      const first = journal.writerThread()!;
      // V8's heap limit of the thread: old + young generation; SQLite's cache_size in KiB (negative).
      expect(await first.ready).toEqual({ heapSizeLimit: (16 + 6) * 1024 * 1024, cacheSize: -2 * 1024 });
      journal.record(entry(1, new Date(Date.UTC(2026, 10, 25, 12))));
      await journal.flush();
      await first.kill();
      expect(first.alive).toBe(false);
      journal.record(entry(2, new Date(Date.UTC(2026, 10, 25, 13))));
      await journal.flush();
      const second = journal.writerThread()!;
      expect(second).not.toBe(first);
      expect(await second.ready).toEqual({ heapSizeLimit: (16 + 6) * 1024 * 1024, cacheSize: -2 * 1024 });
      expect(errors).toEqual([]);
      expect(await count()).toBe(2);
      expect((await journal.list()).deliveries.map((d) => d.requestId)).toEqual(['req-2', 'req-1']);
    } finally {
      await journal.close();
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
  it('after close(), a statement or a batch starts no new writer thread: it fails with the journal closed (the run history pruning shares the writer)', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'lg-journal-'));
    const file = path.join(dir, 'gateway.sqlite');
    const database = createDatabase<any>({ sqliteFile: file });
    await migrate(database.db, gatewayMigrations);
    const errors: string[] = [];
    const journal = await createDeliveryJournal({
      database,
      masterKey: randomBytes(32),
      flushMs: 60_000,
      sqliteFile: file,
      onError: (error) => errors.push((error as Error).message),
    });
    try {
      const writer = journal.writerThread()!;
      await writer.ready;
      await journal.close();
      expect(writer.alive).toBe(false);
      await expect(journal.runStatement(database.db.selectFrom('gw_deliveries').select('id').compile())).rejects.toThrow(
        'the delivery journal is closed',
      );
      journal.record(entry(1, new Date(Date.UTC(2026, 10, 25, 12))));
      await journal.flush();
      expect(journal.writerThread()).toBe(writer); // not replaced
      expect(errors).toEqual(['the delivery journal is closed']);
    } finally {
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** A delivery's position as the journal's cursors encode it (received_at in ms, then id). */
const cursorOf = (d: { receivedAt: string; id: string }): string =>
  Buffer.from(`${Date.parse(d.receivedAt)}|${d.id}`).toString('base64url');

/** Every page of `filter`, following nextCursor: the deliveries in order, and each page with the index (in the whole list) its search started below. */
async function allPages(journal: DeliveryJournal, filter: DeliveryFilter, limit: number) {
  const whole = await journal.list({ limit: 500 });
  const position = (cursor: string | undefined) => (cursor === undefined ? -1 : whole.deliveries.findIndex((d) => cursorOf(d) === cursor));
  const deliveries: Delivery[] = [];
  const each: Array<DeliveryPage & { startIndex: number }> = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await journal.list({ ...filter, limit, ...(cursor ? { cursor } : {}) });
    each.push({ ...page, startIndex: position(cursor) });
    deliveries.push(...page.deliveries);
    if (!page.nextCursor) return { deliveries, pages: each.length, each };
    if (each.length > 1000) throw new Error('the list did not end');
    cursor = page.nextCursor;
  }
}
