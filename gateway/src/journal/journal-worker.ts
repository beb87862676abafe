import { getHeapStatistics } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { forEachRow } from './row-tape.js';

/**
 * The delivery journal's SQLite writer, on its own thread: the HTTP thread only posts batches of
 * rows. One prepared statement, one transaction per batch (a few µs a row, none of them on the
 * earn path's event loop). The pruning's statements run here too, so that deleting thousands of
 * rows never holds the event loop. The table exists already: the main thread migrated before
 * starting this.
 */
const { file, columns, cacheSize } = workerData as { file: string; columns: string[]; cacheSize: string };
const db = new Database(file);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.pragma('busy_timeout = 5000');
db.pragma(cacheSize);
const insert = db.prepare(`insert into gw_deliveries (${columns.join(', ')}) values (${columns.map(() => '?').join(', ')})`);
// Rows arrive as the journal's tape (row-tape.ts): chunks of encoded rows whose memory was transferred
// to this thread, read here one row at a time into one reused array of values in `columns` order.
// Each is bound as the statement's arguments (spread), not as one array argument: better-sqlite3 reads
// an array's elements through V8's API one lookup each (~40 a row, 43 % of this thread's work with
// the binding's UTF-8 copies), its arguments directly (docs/benchmarks.md, "The delivery journal").
const insertAll = db.transaction((chunks: { bytes: Uint8Array }[]) => {
  forEachRow(chunks, columns.length, (row) => insert.run(...row));
});

// First message: ready, with this thread's V8 heap limit in bytes as V8 applied it and its connection's page cache.
parentPort!.postMessage({
  id: 0,
  ok: true,
  heapSizeLimit: getHeapStatistics().heap_size_limit,
  cacheSize: db.pragma('cache_size', { simple: true }),
});
type Message =
  | { id: number; chunks: Uint8Array[] }
  /** One statement compiled on the HTTP thread (the pruning's), run on this thread's connection. */
  | { id: number; query: { sql: string; parameters: unknown[] } }
  | { close: true };

parentPort!.on('message', (message: Message) => {
  if ('close' in message) {
    db.close();
    parentPort!.close();
    return;
  }
  try {
    if ('chunks' in message) {
      insertAll(message.chunks.map((bytes) => ({ bytes })));
      parentPort!.postMessage({ id: message.id, ok: true });
      return;
    }
    const statement = db.prepare(message.query.sql);
    const result = statement.reader
      ? { rows: statement.all(message.query.parameters), changes: 0 }
      : { rows: [], changes: statement.run(message.query.parameters).changes };
    parentPort!.postMessage({ id: message.id, ok: true, result });
  } catch (error) {
    parentPort!.postMessage({ id: message.id, ok: false, error: (error as Error).message });
  }
});
