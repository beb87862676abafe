import type { SqlDatabase } from '@loyalty-gateway/storage';
import type { Kysely } from 'kysely';
import type { ResourceLimits } from 'node:worker_threads';
import type { NothingEarnedReason } from '../webhooks/nothing-earned.js';
import type { FieldError } from './clip-text.js';
import type { FailureCause } from './failure-cause.js';
import type { WriterHost } from './journal-writer-messages.js';

/** The journal's table, `gw_deliveries` (gateway migrations 0005 to 0015). */
export interface GwDeliveriesTable {
  id: string;
  request_id: string;
  request_region: number | null;
  request_key: number | null;
  received_at: number;
  method: string;
  route: string;
  vendor: string | null;
  store_id: string | null;
  connection_id: string | null;
  connection_region: number | null;
  event_type: string | null;
  event_id: string | null;
  transaction_id: string | null;
  transaction_key: number | null;
  transaction_region: number | null;
  refund_id: string | null;
  status: number;
  outcome: string | null;
  warning: string | null;
  fields: string | null;
  duration_ms: number;
  skew_seconds: number | null;
  body_sha256: string | null;
  body_sealed: string | null;
  replay_of: string | null;
  replayed_by: string | null;
  client_address: string | null;
  refusals: number | null;
  last_request_id: string | null;
  authenticated: number | null;
  size_bytes: number | null;
  replay_forced: number | null;
  points_earned: number | null;
  points_reversed: number | null;
  stamps: string | null;
  nothing_earned: string | null;
  failure: string | null;
  trace_id: string | null;
}

/** The journal's database as its statements see it. */
export type JournalDb = Kysely<{ gw_deliveries: GwDeliveriesTable }>;

/** The table's columns in the order a Row holds their values (what both writers bind). */
export const COLUMNS = [
  'id',
  'request_id',
  'request_region',
  'request_key',
  'received_at',
  'method',
  'route',
  'vendor',
  'store_id',
  'connection_id',
  'connection_region',
  'event_type',
  'event_id',
  'transaction_id',
  'transaction_key',
  'transaction_region',
  'refund_id',
  'status',
  'outcome',
  'warning',
  'fields',
  'duration_ms',
  'skew_seconds',
  'body_sha256',
  'body_sealed',
  'replay_of',
  'replayed_by',
  'client_address',
  'refusals',
  'last_request_id',
  'authenticated',
  'size_bytes',
  'replay_forced',
  'points_earned',
  'points_reversed',
  'stamps',
  'nothing_earned',
  'failure',
  'trace_id',
] as const satisfies ReadonlyArray<keyof GwDeliveriesTable>;

/**
 * The type of each column that is not text, as PostgreSQL declares it (SQLite's are `integer`):
 * what the writers cast or bind as numbers; every other column is text.
 */
export const NUMERIC_COLUMNS: Partial<Record<(typeof COLUMNS)[number], 'bigint' | 'integer'>> = {
  received_at: 'bigint',
  status: 'integer',
  duration_ms: 'integer',
  skew_seconds: 'integer',
  transaction_key: 'integer',
  transaction_region: 'integer',
  request_region: 'integer',
  request_key: 'integer',
  connection_region: 'integer',
  refusals: 'integer',
  authenticated: 'integer',
  size_bytes: 'integer',
  replay_forced: 'integer',
  points_earned: 'integer',
  points_reversed: 'integer',
};

/** A row's values in COLUMNS order. */
export type Row = Array<GwDeliveriesTable[keyof GwDeliveriesTable]>;

/** Where a row's `size_bytes` is among its values. */
export const SIZE_COLUMN = COLUMNS.indexOf('size_bytes');

export type { FailureCause, FieldError };

/** What one request was and how it ended. */
export interface DeliveryInput {
  requestId: string;
  receivedAt: Date;
  method: string;
  /** The route template (`/webhooks/generic`, `/webhooks/:slug` as `/webhooks/shopify`, `/v1/refund`). */
  route: string;
  vendor?: string | null | undefined;
  storeId?: string | null | undefined;
  connectionId?: string | null | undefined;
  eventType?: string | null | undefined;
  eventId?: string | null | undefined;
  transactionId?: string | null | undefined;
  refundId?: string | null | undefined;
  status: number;
  /** processed / duplicate / ignored / REDEEMED / … or the error code. */
  outcome?: string | null | undefined;
  warning?: string | null | undefined;
  fields?: FieldError[] | null | undefined;
  durationMs: number;
  /** X-Service-Timestamp − server time, when the request carried one. */
  skewSeconds?: number | null | undefined;
  replayOf?: string | null | undefined;
  replayedBy?: string | null | undefined;
  /** The client (`request.ip` as clientKey counts it): refusals without a connection are aggregated by it. */
  clientAddress?: string | null | undefined;
  /** Whether the request proved its connection (a signature, a featured door's scheme). */
  authenticated?: boolean | null | undefined;
  /** A replay the operator forced past a revoked secret or an inactive connection. */
  replayForced?: boolean | undefined;
  /** Points the request earned (a featured batch: its events together); null when it earned none of any kind. */
  pointsEarned?: number | null | undefined;
  /** Points its refunds reversed. */
  pointsReversed?: number | null | undefined;
  /** The stamp cards it advanced (`Coffee card 4/10`). */
  stamps?: string | null | undefined;
  /** Why a processed sale earned nothing (a fixed set); null when it earned, or was no such sale. */
  nothingEarned?: NothingEarnedReason | null | undefined;
  /** The cause of a failure on our side (5xx): which call, what happened, how long it took. */
  failure?: FailureCause | null | undefined;
  /** The request's OpenTelemetry trace id, when tracing is on and the request was sampled. */
  traceId?: string | null | undefined;
}

/** The request itself, kept (sealed) for failures on our side and replays. */
export interface RecordedRequest {
  body: Buffer;
  headers: Record<string, string>;
}

export interface Delivery extends Omit<
  DeliveryInput,
  | 'receivedAt'
  | 'fields'
  | 'clientAddress'
  | 'authenticated'
  | 'replayForced'
  | 'pointsEarned'
  | 'pointsReversed'
  | 'stamps'
  | 'nothingEarned'
  | 'failure'
  | 'traceId'
> {
  id: string;
  receivedAt: string;
  fields: FieldError[] | null;
  clientAddress: string | null;
  /** How many refusals this entry stands for (refusals without a connection: one row per client address and minute). */
  refusals: number;
  /** The request id of the last of those refusals (null: one request). */
  lastRequestId: string | null;
  /** Whether the request proved its connection; null for entries journalled before this was kept (migration 0013). */
  authenticated: boolean | null;
  replayForced: boolean;
  bodySha256: string | null;
  /** Whether the raw request is kept (a failure on our side, or a replay): only those can be replayed. */
  requestKept: boolean;
  /** Null on entries journalled before these were kept (migration 0014), as when nothing of the kind moved. */
  pointsEarned: number | null;
  pointsReversed: number | null;
  stamps: string | null;
  nothingEarned: NothingEarnedReason | null;
  failure: FailureCause | null;
  /** The journal id of the replay that answered this failed delivery (2xx): it was recovered, nothing is left to replay. */
  recoveredBy: string | null;
  /** The request's trace (OpenTelemetry), when it was traced; null otherwise and before migration 0015. */
  traceId: string | null;
}

export interface DeliveryFilter {
  vendor?: string | undefined;
  store?: string | undefined;
  connectionId?: string | undefined;
  status?: number | undefined;
  code?: string | undefined;
  since?: Date | undefined;
  until?: Date | undefined;
  transactionId?: string | undefined;
  /** Entries with this request id (the caller's X-Request-ID, or the gateway's own when the caller sent none): all of them. */
  requestId?: string | undefined;
  /** Processed sales that earned nothing: for any reason (`any`) or for this one. */
  nothingEarned?: NothingEarnedReason | 'any' | undefined;
  limit?: number | undefined;
  /** From a previous page's `nextCursor`. */
  cursor?: string | undefined;
}

export interface DeliveryJournalOptions {
  database: SqlDatabase<any>;
  /** The gateway's master key: kept requests are sealed with it. */
  masterKey: Buffer;
  /** GATEWAY_JOURNAL_DAYS (default 14). */
  retentionDays?: number;
  /** Most entries kept per connection (older ones pruned first). Default 100,000. */
  maxPerConnection?: number;
  /** The whole journal's bytes at most (GATEWAY_JOURNAL_MB), oldest entries pruned first past them. Default 2 GiB. */
  maxBytes?: number;
  /** Entries waiting to be written before new ones are dropped (never blocking a request). Default 10,000. */
  maxBacklog?: number;
  /** How often the backlog is written. Default 250 ms. */
  flushMs?: number;
  now?: () => Date;
  onError?: (error: unknown, dropped: number) => void;
  /**
   * The SQLite file of `database` (SQLite only): batches are then written by a worker thread with
   * its own connection, off the HTTP thread. Without it they are written through `database`.
   */
  sqliteFile?: string | undefined;
  /** The writer thread's SQLite page cache in MiB (with `sqliteFile`). Default: storage's SQLITE_DEFAULT_CACHE_MB. */
  sqliteCacheMb?: number | undefined;
  /** The writer thread's V8 heap bounds (with `sqliteFile`, without `writerHost`). Default: Node's. */
  writerResourceLimits?: ResourceLimits | undefined;
  /**
   * With `sqliteFile`: a thread that hosts the writer beside its own work (the embedded engine's),
   * instead of a thread of its own. See journal-writer.ts.
   */
  writerHost?: WriterHost | undefined;
  /**
   * With `sqliteFile` and a writer thread of its own: another SQLite database in WAL mode (the
   * embedded engine's ledger) that the writer thread checkpoints in the background, so that the
   * ledger's own checkpoints find its pages already copied (see journal-worker.ts, ledgerCheckpoints).
   */
  checkpointFile?: string | undefined;
  /** PostgreSQL: the bytes of rows (their JSON) one statement carries at most (see openJournalWriter). Default 16 MiB. */
  maxStatementBytes?: number;
  /** Entries one statement of a list's search examines (see list). Default 20,000. */
  searchWindow?: number;
  /** Statements of that size one page's search runs at most. Default 10. */
  searchWindows?: number;
}

/** One page of the journal's list. */
export interface DeliveryPage {
  deliveries: Delivery[];
  /** Continues the list (with the same filters), or null: nothing older matches. */
  nextCursor: string | null;
  /**
   * Set when the page's search stopped at its bound (searchWindow × searchWindows entries
   * examined) before it found a full page: the receipt time of the oldest entry it examined. The
   * page may then hold fewer entries than asked for, or none; `nextCursor` searches on from there.
   */
  searchedBackTo: string | null;
}
