import { getHeapStatistics } from 'node:v8';
import type { MessagePort } from 'node:worker_threads';
import Database from 'better-sqlite3';

/** What the writer is started with. The table exists already: the main thread migrated before starting it. */
export interface JournalWriterData {
  file: string;
  columns: string[];
  /** `PRAGMA cache_size` for its connection (storage's sqliteCacheSizePragma). */
  cacheSize: string;
}

/** The writer's end of its channel: a MessagePort, or the parentPort of a thread of its own. */
type WriterPort = Pick<MessagePort, 'postMessage' | 'on' | 'close'>;

/**
 * Rows written per transaction. A batch is cut into runs of this many with a turn of the event
 * loop between them: hosted in the engine's thread (WorkerEngine.host), a batch of 2,000 rows at a
 * few µs each would otherwise hold the engine's calls for over 10 ms.
 */
export const WRITE_RUN_ROWS = 250;

/**
 * The delivery journal's SQLite writer: one prepared statement, one transaction per run of rows, a
 * few µs a row, none of them on the HTTP thread. It runs in the embedded engine's worker thread
 * (`hosted`, through WorkerEngine.host: no thread of its own) or, when there is no such thread
 * (LOYALTY_ENGINE_URL), in a thread of its own (journal-worker.ts).
 */
export function hosted(port: WriterPort, data: unknown): void {
  const { file, columns, cacheSize } = data as JournalWriterData;
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  db.pragma(cacheSize);
  const insert = db.prepare(`insert into gw_deliveries (${columns.join(', ')}) values (${columns.map(() => '?').join(', ')})`);
  // Rows arrive as arrays of values in `columns` order: cheaper to clone across threads and to bind than objects.
  const insertAll = db.transaction((rows: unknown[][]) => {
    for (const row of rows) insert.run(row);
  });
  const write = async (rows: unknown[][]) => {
    for (let at = 0; at < rows.length; at += WRITE_RUN_ROWS) {
      if (at > 0) await new Promise((resolve) => setImmediate(resolve));
      insertAll(rows.slice(at, at + WRITE_RUN_ROWS));
    }
  };

  // First message: ready, with this thread's V8 heap limit in bytes as V8 applied it and its connection's page cache.
  port.postMessage({
    id: 0,
    ok: true,
    heapSizeLimit: getHeapStatistics().heap_size_limit,
    cacheSize: db.pragma('cache_size', { simple: true }),
  });
  // Its owner's end closed (the journal stopped using it, or a test killed it): let the connection go.
  port.on('close', () => {
    if (db.open) db.close();
  });
  // One batch at a time, in the order they came (a batch's runs yield to the event loop).
  let writing: Promise<void> = Promise.resolve();
  port.on('message', (message: { id: number; rows: unknown[][] } | { close: true }) => {
    writing = writing.then(async () => {
      if ('close' in message) {
        if (db.open) db.close();
        port.close();
        return;
      }
      try {
        await write(message.rows);
        port.postMessage({ id: message.id, ok: true });
      } catch (error) {
        port.postMessage({ id: message.id, ok: false, error: (error as Error).message });
      }
    });
  });
}
