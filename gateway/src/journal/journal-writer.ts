import { Worker, type MessagePort, type ResourceLimits } from 'node:worker_threads';
import type { HostFailedMessage } from '@loyalty-gateway/engine';
import { preparedQuery, SQLITE_DEFAULT_CACHE_MB, sqliteCacheSizePragma } from '@loyalty-gateway/storage';
import { CompiledQuery, sql } from 'kysely';
import { chunkByWeight } from '../stores/chunk-by-weight.js';
import { COLUMNS, NUMERIC_COLUMNS, type DeliveryJournalOptions, type JournalDb, type Row } from './journal-types.js';
import type { JournalWriterData, LedgerCheckpointsData, WriterAnswer, WriterHost, WriterMessage } from './journal-writer-messages.js';
import { jsonbArray, rowsOf, type TapeBatch } from './row-tape.js';

const FROM_SOURCE = import.meta.url.endsWith('.ts');
/** The writer as a thread's entry: from source, a boot module registers tsx in the new thread first. */
const WORKER_ENTRY = FROM_SOURCE ? new URL('./journal-worker-boot.mjs', import.meta.url) : new URL('./journal-worker.js', import.meta.url);
/** The writer as a module hosted on the engine's thread (which runs tsx already when from source). */
const HOSTED_MODULE = new URL(FROM_SOURCE ? './journal-worker.ts' : './journal-worker.js', import.meta.url).href;

/** A writer's bounds as applied: V8's heap limit in bytes, SQLite's `cache_size` (negative: KiB). */
interface WriterLimits {
  heapSizeLimit: number;
  cacheSize: number;
}

/**
 * The writer's insert of one row. Each text column's value is cast to text: the writer binds an
 * ASCII text as a view of its bytes in the tape (a blob, which the cast makes the same text a
 * string would have stored; forEachRow's `utf8`), other texts as strings (the cast leaves them).
 */
const SQLITE_INSERT = `insert into gw_deliveries (${COLUMNS.join(', ')}) values (${COLUMNS.map((c) => (NUMERIC_COLUMNS[c] ? '?' : 'cast(? as text)')).join(', ')})`;

/**
 * How often the writer thread checkpoints the ledger (the embedded engine's SQLite file) while the
 * ledger is written, when the writer has its own thread (journal-worker.ts, ledgerCheckpoints).
 * Measured on a ledger of 10,000,000 sales, four pairs alternated with the build before
 * (docs/benchmarks.md, "Cost at ledger size"): the p99 of earns spread over 1,000,000 members
 * 1.19–1.38× the regular earn's against 1.39–1.64×, their rate unchanged within the runs' noise.
 */
export const LEDGER_CHECKPOINT_MS = 50;

/** What a writer thread is started with (startWriter's, the page cache as its pragma's value). */
interface WriterSetup {
  /** The journal's SQLite file. */
  file: string;
  /** SQLite's `cache_size` value (sqliteCacheSizePragma). */
  cacheSize: string;
  /** The thread's V8 heap bounds (its own thread only). */
  resourceLimits: ResourceLimits | undefined;
  /** Hosted on this thread instead of one of its own (the embedded engine's). */
  host: WriterHost | undefined;
  /** The ledger's SQLite file to checkpoint in the background (its own thread only; LEDGER_CHECKPOINT_MS). */
  checkpointFile: string | undefined;
}

/**
 * One writer (journal-worker.ts), hosted on another thread (`host`) or on a thread of its own: post
 * a batch, resolved when it is committed (rejected with the writer's error).
 */
function writerThread({ file, cacheSize, resourceLimits, host, checkpointFile }: WriterSetup) {
  const data: JournalWriterData = {
    journalWriter: true,
    hosted: host !== undefined,
    file,
    insert: SQLITE_INSERT,
    columns: COLUMNS.length,
    cacheSize,
    // Hosted on the engine's thread, checkpointing the engine's own file there would hold the engine as its own checkpoints do.
    ...(checkpointFile && !host ? { checkpoint: { file: checkpointFile, everyMs: LEDGER_CHECKPOINT_MS } } : {}),
  };
  const pending = new Map<number, { resolve(result?: QueryAnswer): void; reject(error: Error): void }>();
  let next = 0;
  let stopped: Error | null = null;
  let held = false;
  let onReady!: (limits: WriterLimits) => void;
  const ready = new Promise<WriterLimits>((resolve) => (onReady = resolve));
  const stop = (error: Error) => {
    stopped ??= error;
    for (const waiter of pending.values()) waiter.reject(error);
    pending.clear();
  };
  const onAnswer = (answer: WriterAnswer | HostFailedMessage) => {
    if ('hostFailed' in answer) return stop(new Error(`the journal writer could not start on the engine's thread: ${answer.hostFailed}`));
    if (answer.id === 0) return onReady({ heapSizeLimit: answer.heapSizeLimit ?? 0, cacheSize: answer.cacheSize ?? 0 });
    const waiter = pending.get(answer.id);
    pending.delete(answer.id);
    if (answer.ok) waiter?.resolve(answer.result);
    else waiter?.reject(new Error(answer.error ?? 'journal writer failed'));
  };
  const ownThread = (): Worker => {
    const worker = new Worker(WORKER_ENTRY, { workerData: data, ...(resourceLimits ? { resourceLimits } : {}) });
    // Out of heap (ERR_WORKER_OUT_OF_MEMORY) or any other death: the batch in flight is reported lost.
    worker.on('error', (error) => stop(error));
    worker.on('exit', (code) => stop(new Error(`the journal writer thread stopped (exit code ${code})`)));
    return worker;
  };
  const hosted = async (hostOn: WriterHost): Promise<MessagePort> => {
    const port = await hostOn(HOSTED_MODULE, data);
    // Its thread died, or the writer was closed or could not start: the batch in flight is reported lost.
    port.on('close', () => stop(new Error("the journal writer on the loyalty engine's thread stopped")));
    return port;
  };
  const started: Promise<Worker | MessagePort> = host ? hosted(host) : Promise.resolve(ownThread());
  const endpoint = started.then(
    (end) => {
      end.on('message', onAnswer);
      // The writer does not hold the event loop while the gateway runs, only while closing (hold).
      if (!held) end.unref();
      return end;
    },
    (error: Error) => {
      stop(error);
      return null;
    },
  );
  function post<T>(
    message: { chunks: Uint8Array[] } | { query: { sql: string; parameters: unknown[] } },
    transfer: ArrayBuffer[] = [],
  ): Promise<T> {
    if (stopped) return Promise.reject(stopped);
    const id = (next += 1);
    return new Promise<T>((resolve, reject) => {
      pending.set(id, { resolve: resolve as (result?: QueryAnswer) => void, reject });
      void endpoint.then((end) => end?.postMessage({ id, ...message } satisfies WriterMessage, transfer));
    });
  }
  return {
    get alive(): boolean {
      return stopped === null;
    },
    /** Where it runs: 'engine thread' (hosted) or 'own thread'. */
    where: host ? ('engine thread' as const) : ('own thread' as const),
    /** Resolves once the writer runs, with its thread's V8 heap limit and its connection's page cache as applied. */
    ready,
    /** Ends the writer at once, as a crash would (tests): its own thread terminated, or its port on the host closed. */
    kill: async () => {
      const end = await endpoint;
      if (end instanceof Worker) await end.terminate();
      else if (end) await new Promise((resolve) => (end.once('close', resolve), end.close()));
    },
    /** From now on the writer holds the event loop (closing: the process waits for its last batch and its end). */
    hold: () => {
      held = true;
      void endpoint.then((end) => end?.ref());
    },
    /** A batch's chunks, their memory transferred to the writer (not copied; unusable here afterwards). */
    write(batch: TapeBatch): Promise<void> {
      const chunks = batch.chunks.map((chunk) => chunk.bytes);
      return post<void>(
        { chunks },
        chunks.map((bytes) => bytes.buffer as ArrayBuffer),
      );
    },
    /** One compiled statement run on the writer's connection: its rows, or the rows it changed. */
    query(query: CompiledQuery): Promise<QueryAnswer> {
      return post<QueryAnswer>({ query: { sql: query.sql, parameters: [...query.parameters] } });
    },
    async close(): Promise<void> {
      const end = await endpoint;
      if (stopped || !end) return;
      const ended = new Promise((resolve) => end.once(end instanceof Worker ? 'exit' : 'close', resolve));
      end.postMessage({ close: true } satisfies WriterMessage);
      await ended;
    },
  };
}

/**
 * The ledger's background checkpoints on a thread of their own, for when no journal writer runs
 * them (the journal off: GATEWAY_JOURNAL_DAYS=0): the same passes as the writer's
 * (journal-worker.ts, ledgerCheckpoints, every LEDGER_CHECKPOINT_MS), so that turning the journal off
 * does not move the ledger's checkpoints back onto the engine's thread. The thread never holds the
 * event loop. If it dies, the engine's own checkpoints carry on alone, as after any failed pass;
 * `onExit` hears of it.
 */
export function startLedgerCheckpoints(options: {
  file: string;
  sqliteCacheMb?: number | undefined;
  resourceLimits?: ResourceLimits | undefined;
  onExit?: (error: Error) => void;
}): { ready: Promise<{ heapSizeLimit: number }>; close(): Promise<void> } {
  const data: LedgerCheckpointsData = {
    ledgerCheckpoints: true,
    checkpoint: { file: options.file, everyMs: LEDGER_CHECKPOINT_MS },
    cacheSize: sqliteCacheSizePragma(options.sqliteCacheMb ?? SQLITE_DEFAULT_CACHE_MB),
  };
  const worker = new Worker(WORKER_ENTRY, {
    workerData: data,
    ...(options.resourceLimits ? { resourceLimits: options.resourceLimits } : {}),
  });
  worker.unref();
  let closing = false;
  // A death is heard once, at the thread's exit: with its error when it raised one (out of heap), else its exit code.
  let failure: Error | undefined;
  worker.on('error', (error) => (failure = error));
  const exited = new Promise<void>((resolve) =>
    worker.once('exit', (code) => {
      if (!closing) options.onExit?.(failure ?? new Error(`the ledger checkpoint thread stopped (exit code ${code})`));
      resolve();
    }),
  );
  const ready = new Promise<{ heapSizeLimit: number }>((resolve) =>
    worker.once('message', (answer: WriterAnswer) => resolve({ heapSizeLimit: answer.heapSizeLimit ?? 0 })),
  );
  return {
    ready,
    async close() {
      closing = true;
      worker.postMessage({ close: true } satisfies WriterMessage);
      await exited;
    },
  };
}

/** A statement's answer from the writer's connection. */
export interface QueryAnswer {
  rows: unknown[];
  changes: number;
}

/**
 * The journal's writer: a thread, replaced by a new one on the next batch or statement when it has
 * died — until close(): after it, batches and statements fail instead of starting a thread that
 * nothing would close (the run history's pruning sends its statements here too).
 */
function startWriter(setup: WriterSetup) {
  let thread = writerThread(setup);
  let closed = false;
  const live = () => {
    if (closed) throw new Error('the delivery journal is closed');
    if (!thread.alive) thread = writerThread(setup);
    return thread;
  };
  return {
    get thread() {
      return thread;
    },
    write: async (batch: TapeBatch): Promise<void> => live().write(batch),
    query: async (query: CompiledQuery): Promise<QueryAnswer> => live().query(query),
    hold: () => thread.hold(),
    close: () => {
      closed = true;
      return thread.close();
    },
  };
}

/**
 * A batch of rows on PostgreSQL: one named prepared statement whose one parameter is the batch as a
 * JSON array of rows (each in COLUMNS order), whatever the batch's size, sent in jsonb's binary
 * format straight from the journal's tape (jsonbArray). A multi-row VALUES list of 22 parameters
 * per row was parsed and planned again for every batch (an unnamed statement of up to 4,400
 * parameters, a different text for each batch size).
 */
const INSERT_BATCH_POSTGRES = preparedQuery((db, v: { rows: Buffer }) => ({
  compile: () =>
    sql`insert into gw_deliveries (${sql.join(COLUMNS.map((c) => sql.ref(c)))})
      select ${sql.join(COLUMNS.map((c, i) => (NUMERIC_COLUMNS[c] ? sql`(r->>${sql.lit(i)})::${sql.raw(NUMERIC_COLUMNS[c])}` : sql`r->>${sql.lit(i)}`)))}
      from jsonb_array_elements(${v.rows}::jsonb) as r`.compile(db),
}));

/**
 * Where the journal's batches and maintenance statements go: on SQLite with `sqliteFile`, a writer
 * thread with its own connection (off the HTTP thread); on PostgreSQL one prepared statement a
 * batch (its chunks as one jsonb value, in statements of at most `maxStatementBytes`); on SQLite without a file (an in-memory database) `database` itself.
 */
export function openJournalWriter(options: DeliveryJournalOptions) {
  const db = options.database.db as JournalDb;
  const thread =
    options.sqliteFile && options.database.dialect === 'sqlite'
      ? startWriter({
          file: options.sqliteFile,
          cacheSize: sqliteCacheSizePragma(options.sqliteCacheMb ?? SQLITE_DEFAULT_CACHE_MB),
          resourceLimits: options.writerResourceLimits,
          host: options.writerHost,
          checkpointFile: options.checkpointFile,
        })
      : null;
  const postgres = options.database.dialect === 'postgres';
  // jsonb refuses a value over 256 MiB: 200 kept requests of up to 1 MiB each (sealed, ~1.4 MiB of
  // text) would exceed it during an outage, exactly when every request is kept for replay. A batch's
  // chunks (a kept request's row is a chunk of its own or nearly) go in statements of at most this.
  const maxStatementBytes = options.maxStatementBytes ?? 16 * 1024 * 1024;

  // SQLite without the writer thread (an in-memory database): the batch insert as SQL text built
  // once per batch size (Kysely's query builder cost more per row than SQLite's write).
  const insertTexts = new Map<number, string>();
  function insertOf(batch: Row[]): CompiledQuery {
    let text = insertTexts.get(batch.length);
    if (!text) {
      const rows = batch.map(() => `(${COLUMNS.map(() => '?').join(', ')})`);
      text = `insert into gw_deliveries (${COLUMNS.join(', ')}) values ${rows.join(', ')}`;
      insertTexts.set(batch.length, text);
    }
    return CompiledQuery.raw(text, batch.flat());
  }

  return {
    /** Rows a batch takes at most. */
    batchSize: thread ? 2_000 : 200,
    /**
     * The tape's chunk size in bytes, or undefined for its default (64 KiB). Hosted on the engine's
     * thread the writer writes a chunk per turn of that thread, so there 16 KiB (~40 earn rows):
     * ~0.5–2 ms between the engine's calls instead of 2–8 (measured under load, 64 KiB).
     */
    chunkBytes: options.writerHost && thread ? 16 * 1024 : undefined,
    /** How the journal's tape encodes rows for this writer: as JSON for PostgreSQL's batch statement. */
    tapeEncoding: (postgres ? 'json' : 'values') as 'json' | 'values',
    /** One batch of the journal's tape, committed (rejected with the writer's error: the batch is lost). */
    async write(batch: TapeBatch): Promise<void> {
      if (thread) return thread.write(batch);
      if (postgres) {
        for (const run of chunkByWeight(batch.chunks, (chunk) => chunk.bytes.length, maxStatementBytes))
          await INSERT_BATCH_POSTGRES(db, { rows: jsonbArray(run) });
      } else await db.executeQuery(insertOf(rowsOf(batch.chunks, COLUMNS.length)));
    },

    /**
     * One of the pruning's statements: on SQLite with the writer thread, run on its connection, so
     * that deleting many rows never holds the event loop (better-sqlite3 is synchronous: the hourly
     * pruning of a journal of 1,000,000 entries held it ~0.5 s, of 210,000 over a connection's bound
     * ~1 s; docs/benchmarks.md); elsewhere through `database`.
     */
    async run(query: CompiledQuery): Promise<QueryAnswer> {
      if (thread) return thread.query(query);
      const result = await db.executeQuery(query);
      return { rows: result.rows, changes: Number(result.numAffectedRows ?? 0) };
    },
    /** The SQLite writer thread now (null when batches are written through `database`). */
    thread: () => thread?.thread ?? null,
    /** While closing the thread must hold the event loop (see close() of the journal). */
    hold: () => thread?.hold(),
    close: async (): Promise<void> => thread?.close(),
  };
}
