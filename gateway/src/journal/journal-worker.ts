import { statSync } from 'node:fs';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { getHeapStatistics } from 'node:v8';
import { isMainThread, parentPort, workerData, type MessagePort } from 'node:worker_threads';
import Database from 'better-sqlite3';
import type { JournalWriterData, LedgerCheckpointsData, WriterAnswer, WriterMessage } from './journal-writer-messages.js';
import { forEachRow } from './row-tape.js';

/**
 * The delivery journal's SQLite writer: the HTTP thread only posts batches of rows. One prepared
 * statement, one transaction per batch (a few µs a row, none of them on the earn path's event
 * loop). The pruning's statements run here too, so that deleting thousands of rows never holds the
 * event loop. The table exists already: the main thread migrated before starting this.
 *
 * It runs where journal-writer.ts puts it: hosted on the embedded engine's thread (`serve`, called
 * there through the engine's hostOnEngineThread: no thread and V8 isolate of its own), or, when
 * there is no such thread (the engine is a service), as its own worker thread (this module as the
 * thread's entry, marked by `journalWriter` in its workerData).
 */

/** The longest wait between two looks at an idle ledger's WAL (ledgerCheckpoints). */
const IDLE_CHECK_MS = 1000;

/**
 * Checkpoint `file`'s WAL every `everyMs` from this thread, with a connection of its own: a PASSIVE
 * checkpoint copies the committed pages into the database file and syncs it without waiting for the
 * database's writer or holding it. The writer (the engine's thread) keeps its own automatic
 * checkpoint, which then finds the pages copied: it copies the few frames committed since, syncs,
 * and its next transaction starts the WAL again from the top, so the WAL stays bounded as before.
 * Before this, each of those checkpoints copied up to ~1,000 pages and waited for the sync on the
 * engine's thread, and every earn behind it waited too; on a large ledger, where few earns share a
 * page, each copied nearly all of them (docs/benchmarks.md, "Cost at ledger size").
 *
 * Opened on the first look that finds the file's WAL (the engine creates both; this thread never
 * does). A look that finds the WAL as the last pass left it does nothing and waits twice as long,
 * up to IDLE_CHECK_MS (an idle gateway: ~0.3 ms of CPU a second instead of ~6). Busy (the engine's
 * own checkpoint running, a recovery) is tried again at the next look; any other failure stops the
 * background checkpoints, and the engine's own carry on alone, as before. Answers a stop function.
 */
export function ledgerCheckpoints({ file, everyMs, cacheSize }: { file: string; everyMs: number; cacheSize: string }): () => void {
  let db: Database.Database | null = null;
  let checkpoint: Database.Statement | null = null;
  let timer: NodeJS.Timeout | null = null;
  // The WAL as the last pass left it: an idle ledger's WAL does not change, and its pass is skipped.
  let walSeen = '';
  // Every `everyMs` while the ledger is written; idle, the wait doubles up to IDLE_CHECK_MS (a
  // thread woken 20 times a second cost ~6 ms of CPU a second on the benchmarks' VM, doing nothing).
  let waitMs = everyMs;
  const pass = () => {
    const wal = statSync(`${file}-wal`, { throwIfNoEntry: false });
    // No WAL (yet, or the engine closed it): nothing to copy, and the file is the engine's to create.
    const walNow = wal ? `${wal.size}:${wal.mtimeMs}` : '';
    if (walNow === walSeen || !wal) {
      waitMs = Math.min(waitMs * 2, Math.max(everyMs, IDLE_CHECK_MS));
      return;
    }
    waitMs = everyMs;
    try {
      db ??= openForCheckpoints(file, cacheSize);
      checkpoint ??= db.prepare('pragma wal_checkpoint(passive)');
      checkpoint.get();
      walSeen = walNow;
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'SQLITE_BUSY') stop();
    }
  };
  const schedule = () => {
    timer = setTimeout(() => {
      pass();
      if (timer !== null) schedule();
    }, waitMs);
    timer.unref();
  };
  const stop = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    db?.close();
    db = null;
  };
  schedule();
  return stop;
}

/**
 * The checkpoints' own connection to `file`: never creating it, never waiting for a lock (a busy
 * pass is tried again at the next look), and bounded by `cacheSize` as every other connection of
 * the gateway is (GATEWAY_SQLITE_CACHE_MB), not better-sqlite3's 16 MB default.
 */
export function openForCheckpoints(file: string, cacheSize: string): Database.Database {
  const db = new Database(file, { fileMustExist: true, timeout: 0 });
  try {
    db.pragma(cacheSize);
  } catch (error) {
    db.close(); // the pass decides, as for its own failures: busy opens it again at the next look, anything else stops
    throw error;
  }
  return db;
}

/** Serve the journal's writes on `port` until it is closed or told to close. */
export function serve(port: MessagePort, { file, insert: insertSql, columns, cacheSize, hosted, checkpoint }: JournalWriterData): void {
  const stopCheckpoints = checkpoint ? ledgerCheckpoints({ ...checkpoint, cacheSize }) : () => undefined;
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  db.pragma(cacheSize);
  const insert = db.prepare(insertSql);
  const begin = db.prepare('begin');
  const commit = db.prepare('commit');
  const rollback = db.prepare('rollback');

  // Rows arrive as the journal's tape (row-tape.ts): chunks of encoded rows whose memory was
  // transferred to this thread, read here one row at a time into one reused array of values in
  // `columns` order. Each is bound as the statement's arguments (spread), not as one array argument:
  // better-sqlite3 reads an array's elements through V8's API one lookup each (~40 a row, 43 % of
  // this thread's work with the binding's UTF-8 copies), its arguments directly (docs/benchmarks.md,
  // "The delivery journal"). An ASCII row's texts are views of their bytes in the chunk, bound as
  // blobs that the insert casts to text: no string is made of them here, and better-sqlite3 makes
  // no UTF-8 copy of one. One transaction per batch. On a thread of its own, in one go; hosted on
  // the engine's thread, a chunk of the tape (16 KiB there, ~40 earn rows, ~0.5–2 ms) per turn of
  // that thread, so that the engine's calls run between chunks instead of waiting behind the batch.
  const insertChunk = (bytes: Uint8Array) => forEachRow([{ bytes }], columns, (row) => insert.run(...row), 'utf8');
  const insertAtOnce = db.transaction((chunks: Uint8Array[]) => chunks.forEach(insertChunk));
  async function insertAll(chunks: Uint8Array[]): Promise<void> {
    if (!hosted) return insertAtOnce(chunks);
    begin.run();
    try {
      for (const [n, bytes] of chunks.entries()) {
        if (n > 0) await nextTurn();
        insertChunk(bytes);
      }
      commit.run();
    } catch (error) {
      if (db.inTransaction) rollback.run();
      throw error;
    }
  }

  function answer(message: Exclude<WriterMessage, { close: true }>): Promise<WriterAnswer> | WriterAnswer {
    if ('chunks' in message) return insertAll(message.chunks).then(() => ({ id: message.id, ok: true }));
    const statement = db.prepare(message.query.sql);
    const result = statement.reader
      ? { rows: statement.all(message.query.parameters), changes: 0 }
      : { rows: [], changes: statement.run(message.query.parameters).changes };
    return { id: message.id, ok: true, result };
  }

  // One message at a time, in order: a statement never runs inside a batch's open transaction.
  let queue: Promise<unknown> = Promise.resolve();
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    void queue.then(() => {
      stopCheckpoints();
      db.close();
      port.close();
    });
  };
  port.on('close', close);
  port.on('message', (message: WriterMessage) => {
    if ('close' in message) return close();
    queue = queue.then(async () => {
      try {
        port.postMessage(await answer(message));
      } catch (error) {
        port.postMessage({ id: message.id, ok: false, error: (error as Error).message } satisfies WriterAnswer);
      }
    });
  });
  // First message: ready, with this thread's V8 heap limit in bytes as V8 applied it and its connection's page cache.
  port.postMessage({
    id: 0,
    ok: true,
    heapSizeLimit: getHeapStatistics().heap_size_limit,
    cacheSize: db.pragma('cache_size', { simple: true }) as number,
  } satisfies WriterAnswer);
}

/**
 * Checkpoint the ledger in the background until told to close, and nothing else: the thread
 * journal-writer.ts's startLedgerCheckpoints starts when the journal is off, so that the ledger's
 * checkpoints stay off the engine's thread whether or not there is a writer to run them.
 */
export function serveCheckpoints(port: MessagePort, { checkpoint, cacheSize }: LedgerCheckpointsData): void {
  const stop = ledgerCheckpoints({ ...checkpoint, cacheSize });
  port.on('message', (message: WriterMessage) => {
    if (!('close' in message)) return;
    stop();
    port.close();
  });
  port.postMessage({ id: 0, ok: true, heapSizeLimit: getHeapStatistics().heap_size_limit } satisfies WriterAnswer);
}

// As a thread of its own (journal-writer.ts starts this module with its data): serve the parent,
// as the journal's writer or as the ledger's checkpoints alone.
if (!isMainThread && (workerData as Partial<JournalWriterData> | null)?.journalWriter === true)
  serve(parentPort as unknown as MessagePort, workerData as JournalWriterData);
if (!isMainThread && (workerData as Partial<LedgerCheckpointsData> | null)?.ledgerCheckpoints === true)
  serveCheckpoints(parentPort as unknown as MessagePort, workerData as LedgerCheckpointsData);
