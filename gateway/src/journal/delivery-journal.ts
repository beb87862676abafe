import { clipText } from './clip-text.js';
import { timeOrderedId } from './journal-ids.js';
import { journalPruning } from './journal-pruning.js';
import { journalReader } from './journal-reader.js';
import { journalRows } from './journal-rows.js';
import type { DeliveryInput, DeliveryJournalOptions, JournalDb, RecordedRequest } from './journal-types.js';
import { openJournalWriter } from './journal-writer.js';
import { createRowTape } from './row-tape.js';
import { createRefusalAggregates } from './refusal-aggregates.js';

// The journal's front: what it offers the gateway, composed of its parts — the table and its
// types (journal-types.ts), ids and hashing (journal-ids.ts), an entry as a row and back
// (journal-rows.ts), the writers (journal-writer.ts), the statements (journal-queries.ts), the
// reads (journal-reader.ts) and the pruning (journal-pruning.ts, byte-budget.ts).

export type {
  Delivery,
  DeliveryFilter,
  DeliveryInput,
  DeliveryJournalOptions,
  DeliveryPage,
  FailureCause,
  FieldError,
  RecordedRequest,
} from './journal-types.js';
export { cursorAfter } from './journal-queries.js';

export type DeliveryJournal = Awaited<ReturnType<typeof createDeliveryJournal>>;

/**
 * The delivery journal, on either dialect. `record` only queues (a request never waits for it nor
 * fails because of it); the queue is written in batches every `flushMs`, and when the database is
 * slow the backlog is bounded: past `maxBacklog` new entries are dropped and counted. The ledger's
 * exactly-once guarantee does not depend on it in any way.
 */
export async function createDeliveryJournal(options: DeliveryJournalOptions) {
  const db = options.database.db as JournalDb;
  const rows = journalRows(options.masterKey);
  const now = options.now ?? (() => new Date());
  const maxBacklog = options.maxBacklog ?? 10_000;
  const writer = openJournalWriter(options);
  // The queue: rows encoded outside V8's heap until written (row-tape.ts), a chunk at most a batch.
  const queue = createRowTape({ rowsPerChunk: writer.batchSize, encoding: writer.tapeEncoding, chunkBytes: writer.chunkBytes });
  let dropped = 0;
  let writing: Promise<void> = Promise.resolve();
  const aggregates = createRefusalAggregates();
  const pruning = journalPruning({
    db,
    dialect: options.database.dialect,
    run: writer.run,
    now,
    retentionDays: options.retentionDays ?? 14,
    maxPerConnection: options.maxPerConnection ?? 100_000,
    maxBytes: options.maxBytes ?? 2 * 1024 * 1024 * 1024,
    onError: options.onError,
  });

  async function flush(): Promise<void> {
    const writes = writing.then(async () => {
      for (let batch = queue.take(writer.batchSize); batch; batch = queue.take(writer.batchSize)) {
        try {
          await writer.write(batch);
          pruning.wrote(batch.sizeBytes);
        } catch (error) {
          options.onError?.(error, batch.rows);
        }
      }
      // Aggregated refusals: their rows' counts, after the rows themselves (one statement per client address and minute).
      for (const update of aggregates.take()) {
        try {
          await writer.run(
            db
              .updateTable('gw_deliveries')
              .set({ refusals: update.count, last_request_id: clipText(update.lastRequestId, 128, false) })
              .where('id', '=', update.id)
              .compile(),
          );
        } catch (error) {
          options.onError?.(error, 0);
        }
      }
    });
    writing = writes;
    await writes;
    pruning.checkBudget();
  }
  const timer = setInterval(() => void flush(), options.flushMs ?? 250);
  timer.unref();

  const reader = journalReader({
    db,
    rows,
    flush,
    searchWindow: Math.max(1, options.searchWindow ?? 20_000),
    searchWindows: Math.max(1, options.searchWindows ?? 10),
  });

  return {
    /** Queue one entry (never waits, never throws). Pass `request` to keep it, sealed, for a replay. */
    record(input: DeliveryInput, body?: Buffer, request?: RecordedRequest): void {
      try {
        let id: string | undefined;
        let address = input.clientAddress;
        if (!input.connectionId && input.status >= 400 && input.status < 500 && !input.replayOf && !request) {
          // A refusal (4xx) anyone can send: one row per client address and minute (refusal-aggregates.ts).
          const first = aggregates.count(input.clientAddress ?? '?', input.receivedAt.getTime(), input.requestId, () =>
            timeOrderedId(input.receivedAt.getTime()),
          );
          if (!first) return;
          ({ id, address } = first);
        }
        if (queue.rows >= maxBacklog) {
          dropped += 1;
          return;
        }
        queue.push(rows.row(input, request, body, id, address));
      } catch (error) {
        options.onError?.(error, 1);
      }
    },
    flush,
    /**
     * Entries waiting to be written (the gateway_journal_backlog gauge), entries dropped since
     * start, and entries the byte budget pruned before their days were up (gateway_journal_pruned_early_total).
     */
    backlog: () => ({ waiting: queue.rows, dropped, prunedEarly: pruning.prunedEarly() }),
    /** The SQLite writer thread now (null when batches are written through `database`). */
    writerThread: writer.thread,
    /**
     * One maintenance statement on the journal's connection to the gateway's database: on SQLite
     * its writer thread, off the event loop (the run history's pruning uses it too); elsewhere
     * the journal's `database`. Its rows, or how many rows it changed.
     */
    runStatement: writer.run,
    list: reader.list,
    get: reader.get,
    replaysOf: reader.replaysOf,
    prune: pruning.prune,
    async close(): Promise<void> {
      clearInterval(timer);
      // The writer thread does not hold the event loop while the gateway runs (unref): while
      // closing it must, or a process with nothing else left would exit before the last batch.
      writer.hold();
      await flush();
      // A byte budget check under way finishes on the writer before it closes.
      await pruning.settled();
      await writer.close();
    },
  };
}
