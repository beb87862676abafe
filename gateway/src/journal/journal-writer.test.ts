import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createWorkerEngine, type WorkerEngine } from '@loyalty-gateway/engine';
import { openTestDatabase, testDatabaseOptions, testDialects } from '@loyalty-gateway/storage/testing';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { gatewayMigrations } from '../stores/gateway-migrations.js';
import { journalEntry, journalRowCount, openJournalFile } from '../testing/journal-entries.js';
import { createDeliveryJournal } from './delivery-journal.js';

type Journal = Awaited<ReturnType<typeof createDeliveryJournal>>;

/** One entry written, the writer killed as a crash would, another entry written: the writer that wrote it (a new one). */
async function killedAndReplaced(journal: Journal) {
  const first = journal.writerThread()!;
  journal.record(journalEntry(1, new Date(Date.UTC(2026, 10, 25, 12))));
  await journal.flush();
  await first.kill();
  expect(first.alive).toBe(false);
  journal.record(journalEntry(2, new Date(Date.UTC(2026, 10, 25, 13))));
  await journal.flush();
  const second = journal.writerThread()!;
  expect(second).not.toBe(first);
  return second;
}

describe.each(testDialects())("the journal's writer ($name)", ({ name }) => {
  it('kept requests too large for one statement together are written in several, each read back whole', async () => {
    const database = await openTestDatabase<any>(name, gatewayMigrations);
    const errors: unknown[] = [];
    // 100 KiB bodies, sealed to ~140,000 characters each, at most 300,000 bytes per statement.
    const journal = await createDeliveryJournal({
      database,
      masterKey: randomBytes(32),
      flushMs: 60_000,
      maxStatementBytes: 300_000,
      onError: (e) => errors.push(e),
    });
    try {
      const bodies = Array.from({ length: 7 }, (_, n) => Buffer.from(`{"n":${n},"pad":"${'x'.repeat(100 * 1024)}"}`));
      bodies.forEach((body, n) =>
        journal.record(journalEntry(n, new Date(Date.UTC(2026, 10, 27, 4, 0, n)), { status: 500, outcome: 'internal_error' }), body, {
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
    const { database, file, remove } = await openJournalFile();
    const journal = await createDeliveryJournal({ database, masterKey: randomBytes(32), flushMs: 60_000, sqliteFile: file });
    try {
      // The writer's connection has storage's default page cache (not better-sqlite3's 16 MiB).
      expect((await journal.writerThread()!.ready).cacheSize).toBe(-4 * 1024);
      for (let n = 0; n < 2_500; n += 1) journal.record(journalEntry(n, new Date(Date.UTC(2026, 10, 25, 12, 0, 0, n))));
      journal.record(journalEntry(9_999, new Date(Date.UTC(2026, 10, 26)), { status: 500, outcome: 'internal_error' }), Buffer.from('{}'), {
        body: Buffer.from('{}'),
        headers: { 'x-service-vendor': 'acme-pos' },
      });
      await journal.flush();
      const { deliveries } = await journal.list({ limit: 3 });
      expect(deliveries.map((d) => d.requestId)).toEqual(['req-9999', 'req-2499', 'req-2498']);
      expect((await journal.get('req-9999'))?.request?.headers).toEqual({ 'x-service-vendor': 'acme-pos' });
      expect(await journalRowCount(database.db)).toBe(2_501);
    } finally {
      await journal.close();
      await database.close();
      remove();
    }
  });

  it('stores every text as text: an ASCII row bound as bytes, a row with other characters as strings, an empty text as empty', async () => {
    const { database, file, remove } = await openJournalFile();
    const journal = await createDeliveryJournal({ database, masterKey: randomBytes(32), flushMs: 60_000, sqliteFile: file });
    try {
      const at = new Date(Date.UTC(2026, 10, 29, 12));
      journal.record(journalEntry(1, at, { transactionId: 'T-1', eventType: '', warning: 'plain ASCII' }), Buffer.from('{}'));
      journal.record(journalEntry(2, at, { transactionId: 'T-2', storeId: 'café-1', warning: 'prix réduit 😀' }), Buffer.from('{}'));
      await journal.flush();
      const { rows } = await sql<Record<string, string>>`select request_id, typeof(id) as id, typeof(request_id) as request,
        typeof(route) as route, typeof(store_id) as store, typeof(transaction_id) as tx, typeof(event_type) as event,
        typeof(warning) as warning, typeof(body_sha256) as sha, event_type, store_id, warning as warning_text
        from gw_deliveries order by request_id`.execute(database.db);
      const text = { id: 'text', request: 'text', route: 'text', store: 'text', tx: 'text', sha: 'text', warning: 'text' };
      expect(rows).toEqual([
        { request_id: 'req-1', ...text, event: 'text', event_type: '', store_id: 's-1', warning_text: 'plain ASCII' },
        { request_id: 'req-2', ...text, event: 'null', event_type: null, store_id: 'café-1', warning_text: 'prix réduit 😀' },
      ]);
      // The journal's lookups compare texts: they find both rows.
      expect((await journal.list({ transactionId: 'T-1' })).deliveries.map((d) => d.requestId)).toEqual(['req-1']);
      expect((await journal.list({ transactionId: 'T-2' })).deliveries.map((d) => d.requestId)).toEqual(['req-2']);
      expect((await journal.get('req-1'))?.storeId).toBe('s-1');
      expect((await journal.list({ store: 'café-1' })).deliveries.map((d) => d.requestId)).toEqual(['req-2']);
    } finally {
      await journal.close();
      await database.close();
      remove();
    }
  });

  it('runs the writer within its heap bounds and page cache; a writer thread that has died is replaced by a new one for the next batch', async () => {
    const { database, file, remove } = await openJournalFile();
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
    try {
      // V8's heap limit of the thread: old + young generation; SQLite's cache_size in KiB (negative).
      expect(await journal.writerThread()!.ready).toEqual({ heapSizeLimit: (16 + 6) * 1024 * 1024, cacheSize: -2 * 1024 });
      const second = await killedAndReplaced(journal);
      expect(await second.ready).toEqual({ heapSizeLimit: (16 + 6) * 1024 * 1024, cacheSize: -2 * 1024 });
      expect(errors).toEqual([]);
      expect(await journalRowCount(database.db)).toBe(2);
      expect((await journal.list()).deliveries.map((d) => d.requestId)).toEqual(['req-2', 'req-1']);
    } finally {
      await journal.close();
      await database.close();
      remove();
    }
  });
  it('after close(), a statement or a batch starts no new writer thread: it fails with the journal closed (the run history pruning shares the writer)', async () => {
    const { database, file, remove } = await openJournalFile();
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
      journal.record(journalEntry(1, new Date(Date.UTC(2026, 10, 25, 12))));
      await journal.flush();
      expect(journal.writerThread()).toBe(writer); // not replaced
      expect(errors).toEqual(['the delivery journal is closed']);
    } finally {
      await database.close();
      remove();
    }
  });
});

describe("delivery journal on a SQLite file: written on the embedded engine's thread", () => {
  let engine: WorkerEngine;
  let disposeEngine: () => Promise<void>;
  const starts: number[] = [];

  async function hostedJournal(onError?: (error: unknown) => void) {
    const { database, file, remove } = await openJournalFile();
    const journal = await createDeliveryJournal({
      database,
      masterKey: randomBytes(32),
      flushMs: 60_000,
      sqliteFile: file,
      writerHost: engine.hostOnEngineThread.bind(engine),
      onError,
    });
    return {
      database,
      journal,
      async dispose() {
        await journal.close();
        await database.close();
        remove();
      },
    };
  }

  beforeEach(async () => {
    const db = await testDatabaseOptions('sqlite');
    disposeEngine = db.dispose;
    starts.length = 0;
    engine = await createWorkerEngine({
      database: db.options,
      resourceLimits: { maxOldGenerationSizeMb: 40, maxYoungGenerationSizeMb: 6 },
      onWorkerStart: (id) => starts.push(id),
    });
  });
  afterEach(async () => {
    await engine.close();
    await disposeEngine();
  });

  it("commits batches through no thread of its own, within the engine thread's bounds; pruning's statements run there too", async () => {
    const { database, journal, dispose } = await hostedJournal();
    try {
      const writer = journal.writerThread()!;
      expect(writer.where).toBe('engine thread');
      // The engine thread's V8 heap limit (old + young generation) and storage's default page cache.
      expect(await writer.ready).toEqual({ heapSizeLimit: (40 + 6) * 1024 * 1024, cacheSize: -4 * 1024 });
      for (let n = 0; n < 2_500; n += 1) journal.record(journalEntry(n, new Date(Date.UTC(2026, 10, 25, 12, 0, 0, n))));
      await journal.flush();
      expect(await journalRowCount(database.db)).toBe(2_500);
      const { rows } = await journal.runStatement(
        database.db
          .selectFrom('gw_deliveries')
          .select((eb) => eb.fn.countAll().as('n'))
          .compile(),
      );
      expect(rows).toEqual([{ n: 2_500 }]);
      const { changes } = await journal.runStatement(database.db.deleteFrom('gw_deliveries').where('request_id', '=', 'req-7').compile());
      expect(changes).toBe(1);
      expect(starts).toHaveLength(1); // the engine's thread, not restarted for it
    } finally {
      await dispose();
    }
  });

  it("writes a large batch a chunk per turn: the engine's calls are answered while it is written, and it commits whole", async () => {
    const { database, journal, dispose } = await hostedJournal();
    try {
      await journal.writerThread()!.ready;
      // One batch (the writer takes 2,000 rows at most): several 64 KiB chunks of the journal's tape.
      for (let n = 0; n < 2_000; n += 1) journal.record(journalEntry(n, new Date(Date.UTC(2026, 10, 25, 12, 0, 0, n))));
      // The batch is posted first; the ping after it is answered before the batch's chunks are all written.
      const flushed = journal.flush().then(() => 'batch committed');
      const pinged = engine.ping().then(() => 'ping answered');
      expect(await Promise.race([flushed, pinged])).toBe('ping answered');
      expect(await journalRowCount(database.db)).toBe(0); // one transaction: none of it visible yet
      await flushed;
      expect(await journalRowCount(database.db)).toBe(2_000);
    } finally {
      await dispose();
    }
  });

  it("a writer whose port closed (its thread died) is started again for the next batch, on the engine's thread", async () => {
    const errors: unknown[] = [];
    const { journal, dispose } = await hostedJournal((error) => errors.push(error));
    try {
      const second = await killedAndReplaced(journal);
      expect(second.where).toBe('engine thread');
      expect(errors).toEqual([]);
      expect((await journal.list()).deliveries.map((d) => d.requestId)).toEqual(['req-2', 'req-1']);
      expect(starts).toHaveLength(1); // the same engine thread hosts the new writer
    } finally {
      await dispose();
    }
  });
});
