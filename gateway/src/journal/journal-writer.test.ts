import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openTestDatabase, testDialects } from '@loyalty-gateway/storage/testing';
import { describe, expect, it } from 'vitest';
import { gatewayMigrations } from '../stores/gateway-migrations.js';
import { journalEntry, journalRowCount, openJournalFile } from '../testing/journal-entries.js';
import { createDeliveryJournal } from './delivery-journal.js';

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
      const first = journal.writerThread()!;
      // V8's heap limit of the thread: old + young generation; SQLite's cache_size in KiB (negative).
      expect(await first.ready).toEqual({ heapSizeLimit: (16 + 6) * 1024 * 1024, cacheSize: -2 * 1024 });
      journal.record(journalEntry(1, new Date(Date.UTC(2026, 10, 25, 12))));
      await journal.flush();
      await first.kill();
      expect(first.alive).toBe(false);
      journal.record(journalEntry(2, new Date(Date.UTC(2026, 10, 25, 13))));
      await journal.flush();
      const second = journal.writerThread()!;
      expect(second).not.toBe(first);
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
