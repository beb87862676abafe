import { existsSync, mkdtempSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { openJournalFile } from '../testing/journal-entries.js';
import { createDeliveryJournal } from './delivery-journal.js';
import { ledgerCheckpoints, openForCheckpoints } from './journal-worker.js';
import { startLedgerCheckpoints } from './journal-writer.js';

const PAGE = 4096;
const CACHE = 'cache_size = -2048';
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'lg-ledger-checkpoints-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A WAL database whose own connection never checkpoints (as if its checkpoints were all left to others). */
function openWriter(file: string) {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('wal_autocheckpoint = 0');
  db.exec('create table rows (id integer primary key, pad blob not null)');
  const insert = db.prepare('insert into rows (pad) values (?)');
  /** One transaction of `pages` new pages of rows. */
  const write = db.transaction((pages: number) => {
    for (let i = 0; i < pages; i++) insert.run(Buffer.alloc(PAGE - 200, i));
  });
  return { db, write };
}

const size = (file: string) => (existsSync(file) ? statSync(file).size : 0);

/** Once the background checkpoints have ended: what the ledger commits now stays in its WAL. */
async function expectNoMoreCheckpoints(ledger: ReturnType<typeof openWriter>, file: string): Promise<void> {
  const closedAt = size(file);
  ledger.write(100);
  await new Promise((resolve) => setTimeout(resolve, 200));
  expect(size(file)).toBe(closedAt);
}

/** Polls `condition` every 5 ms for up to `ms`; true once it holds. */
async function eventually(condition: () => boolean, ms = 3000): Promise<boolean> {
  const until = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > until) return false;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return true;
}

describe('ledgerCheckpoints (the writer thread checkpointing the ledger in the background)', () => {
  it("copies another connection's committed pages into the database file, without that connection checkpointing", async () => {
    const file = path.join(dir, 'engine.sqlite');
    const { db, write } = openWriter(file);
    write(200);
    const before = size(file);
    // Nothing checkpointed the 200 pages: they are in the WAL only.
    expect(before).toBeLessThan(20 * PAGE);
    expect(size(`${file}-wal`)).toBeGreaterThan(200 * PAGE);
    const stop = ledgerCheckpoints({ file, everyMs: 10, cacheSize: CACHE });
    try {
      expect(await eventually(() => size(file) >= 200 * PAGE)).toBe(true);
      expect((db.prepare('select count(*) as n from rows').get() as { n: number }).n).toBe(200);
    } finally {
      stop();
      db.close();
    }
  });

  it("keeps the WAL bounded: each of the writer's transactions finds the last one copied and starts the WAL again", async () => {
    const file = path.join(dir, 'engine.sqlite');
    const { db, write } = openWriter(file);
    const stop = ledgerCheckpoints({ file, everyMs: 10, cacheSize: CACHE });
    try {
      let largestWal = 0;
      for (let n = 1; n <= 30; n++) {
        write(20);
        largestWal = Math.max(largestWal, size(`${file}-wal`));
        // The background pass copies this transaction's pages before the next one begins.
        expect(await eventually(() => size(file) >= (n * 20 - 5) * PAGE)).toBe(true);
      }
      // Without the background pass the WAL would hold all 600 pages (the control below).
      expect(largestWal).toBeLessThan(100 * PAGE);
    } finally {
      stop();
      db.close();
    }
    const control = openWriter(path.join(dir, 'control.sqlite'));
    for (let n = 1; n <= 30; n++) control.write(20);
    expect(size(path.join(dir, 'control.sqlite-wal'))).toBeGreaterThan(600 * PAGE);
    control.db.close();
  });

  it("opens the ledger with the gateway's page-cache bound, not better-sqlite3's 16 MB default, and never creates it", () => {
    const file = path.join(dir, 'engine.sqlite');
    expect(() => openForCheckpoints(file, CACHE)).toThrow();
    expect(existsSync(file)).toBe(false);
    const { db: writer } = openWriter(file);
    const db = openForCheckpoints(file, CACHE);
    try {
      expect(db.pragma('cache_size', { simple: true })).toBe(-2048);
    } finally {
      db.close();
      writer.close();
    }
  });

  it('never creates the file: it begins once the engine has', async () => {
    const file = path.join(dir, 'engine.sqlite');
    const stop = ledgerCheckpoints({ file, everyMs: 10, cacheSize: CACHE });
    try {
      await new Promise((resolve) => setTimeout(resolve, 60));
      expect(existsSync(file)).toBe(false);
      const { db, write } = openWriter(file);
      write(100);
      expect(await eventually(() => size(file) >= 100 * PAGE)).toBe(true);
      db.close();
    } finally {
      stop();
    }
  });

  it("stops at a failure other than busy, leaving the checkpoints to the ledger's own connection", async () => {
    const file = path.join(dir, 'engine.sqlite');
    writeFileSync(file, Buffer.alloc(8192, 7)); // not a database
    writeFileSync(`${file}-wal`, Buffer.alloc(8192, 7)); // nor a WAL: the pass opens the file, and fails
    const stop = ledgerCheckpoints({ file, everyMs: 10, cacheSize: CACHE });
    try {
      await new Promise((resolve) => setTimeout(resolve, 60));
      // The same file, emptied (an empty file is an empty database): a connection still open on it would checkpoint it now.
      truncateSync(file, 0);
      rmSync(`${file}-wal`, { force: true });
      const { db, write } = openWriter(file);
      write(100);
      await new Promise((resolve) => setTimeout(resolve, 200));
      // Stopped: nothing copied the 100 pages out of the WAL.
      expect(size(file)).toBeLessThan(20 * PAGE);
      db.close();
    } finally {
      stop();
    }
  });

  it("runs on the journal's writer thread when the journal is given the ledger's file, and ends with it", async () => {
    const file = path.join(dir, 'engine.sqlite');
    const ledger = openWriter(file);
    ledger.write(150);
    const { database, file: journalFile, remove } = await openJournalFile();
    const journal = await createDeliveryJournal({ database, masterKey: randomBytes(32), sqliteFile: journalFile, checkpointFile: file });
    try {
      await journal.writerThread()!.ready;
      expect(await eventually(() => size(file) >= 150 * PAGE)).toBe(true);
    } finally {
      await journal.close();
      await database.close();
      remove();
    }
    // Closed with the journal.
    await expectNoMoreCheckpoints(ledger, file);
    ledger.db.close();
  });

  it('runs on a thread of its own when there is no journal writer to run it (the journal off), and ends with close()', async () => {
    const file = path.join(dir, 'engine.sqlite');
    const ledger = openWriter(file);
    ledger.write(150);
    const exits: Error[] = [];
    const checkpoints = startLedgerCheckpoints({ file, sqliteCacheMb: 2, onExit: (error) => exits.push(error) });
    try {
      expect((await checkpoints.ready).heapSizeLimit).toBeGreaterThan(0);
      expect(await eventually(() => size(file) >= 150 * PAGE)).toBe(true);
    } finally {
      await checkpoints.close();
    }
    // A close is not a failure to report.
    expect(exits).toEqual([]);
    await expectNoMoreCheckpoints(ledger, file);
    ledger.db.close();
  });

  it('a checkpoint thread that dies is reported once, with its error', async () => {
    const file = path.join(dir, 'engine.sqlite');
    const ledger = openWriter(file);
    const exits: Error[] = [];
    // A heap far below what a thread needs to load its module: it dies starting (ERR_WORKER_OUT_OF_MEMORY).
    const checkpoints = startLedgerCheckpoints({
      file,
      resourceLimits: { maxOldGenerationSizeMb: 1, maxYoungGenerationSizeMb: 1 },
      onExit: (error) => exits.push(error),
    });
    try {
      expect(await eventually(() => exits.length > 0)).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(exits).toHaveLength(1);
      expect(exits[0]!.message).toMatch(/memory|heap/i);
    } finally {
      await checkpoints.close();
      ledger.db.close();
    }
  });
});
