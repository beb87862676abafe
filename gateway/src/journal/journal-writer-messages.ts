import type { MessagePort } from 'node:worker_threads';

/**
 * What the delivery journal's writer (journal-worker.ts, on its own thread or hosted on the
 * engine's) and its owner (journal-writer.ts, on the HTTP thread) say to each other: the writer's
 * start data, the messages it is sent and those it answers.
 */
export interface JournalWriterData {
  journalWriter: true;
  /** On a thread it shares (the engine's): a batch is written a chunk per turn, not in one go. */
  hosted: boolean;
  file: string;
  /** The insert of one row (journal-writer.ts), its values bound in COLUMNS order. */
  insert: string;
  /** How many values a row has. */
  columns: number;
  cacheSize: string;
  /** Another WAL database this thread checkpoints in the background (ledgerCheckpoints; its connection's cache bounded by `cacheSize` too). */
  checkpoint?: { file: string; everyMs: number } | undefined;
}

/**
 * What a thread that only checkpoints the ledger is started with: the journal is off, so no writer
 * thread does it beside its inserts (journal-writer.ts, startLedgerCheckpoints). It answers once
 * (id 0, ready, with its heap limit as applied) and ends on `{ close: true }`.
 */
export interface LedgerCheckpointsData {
  ledgerCheckpoints: true;
  checkpoint: { file: string; everyMs: number };
  cacheSize: string;
}

/** The messages a writer is sent: a batch of rows (row-tape chunks), a statement, or close. */
export type WriterMessage =
  | { id: number; chunks: Uint8Array[] }
  /** One statement compiled on the HTTP thread (the pruning's), run on this thread's connection. */
  | { id: number; query: { sql: string; parameters: unknown[] } }
  | { close: true };

/** The messages a writer answers: its first (id 0, ready, with its bounds as applied) and one per batch or statement. */
export type WriterAnswer = {
  id: number;
  ok: boolean;
  error?: string;
  result?: { rows: unknown[]; changes: number };
  heapSizeLimit?: number;
  cacheSize?: number;
};

/**
 * A thread that hosts the writer beside its own work: the embedded engine's (WorkerEngine's
 * hostOnEngineThread). Returns the writer's port; when that thread dies the port closes, and the
 * next call starts the writer on the thread that replaced it.
 */
export type WriterHost = (module: string, data: JournalWriterData) => Promise<MessagePort>;
