import { hash, randomBytes } from 'node:crypto';
import { Worker, type ResourceLimits } from 'node:worker_threads';
import { preparedQuery, SQLITE_DEFAULT_CACHE_MB, sqliteCacheSizePragma, type SqlDatabase } from '@loyalty-gateway/storage';
import { CompiledQuery, sql, type ExpressionBuilder, type Kysely, type Selectable, type SelectQueryBuilder } from 'kysely';
import { createSecretBox } from '../stores/secret-box.js';
import { ROW_OVERHEAD_BYTES, pruneToBudget } from './byte-budget.js';
import { chooseByRequestId, matchOf, type RequestIdMatch } from './choose-by-request-id.js';
import type { NothingEarnedReason } from '../webhooks/nothing-earned.js';
import { clipFields, clipText, type FieldError } from './clip-text.js';
import type { FailureCause } from './failure-cause.js';
import { clipFailure, parseFailure } from './failure-text.js';
import { createRefusalAggregates } from './refusal-aggregates.js';

interface GwDeliveriesTable {
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
  /** The writer thread's V8 heap bounds (with `sqliteFile`). Default: Node's. */
  writerResourceLimits?: ResourceLimits | undefined;
  /** PostgreSQL: the characters of rows one statement carries at most (see chunkRows). Default 16 MiB. */
  maxStatementChars?: number;
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

const WORKER_ENTRY = import.meta.url.endsWith('.ts')
  ? new URL('./journal-worker-boot.mjs', import.meta.url)
  : new URL('./journal-worker.js', import.meta.url);

/** A writer thread's bounds as applied: V8's heap limit in bytes, SQLite's `cache_size` (negative: KiB). */
interface WriterLimits {
  heapSizeLimit: number;
  cacheSize: number;
}

/** One writer thread: post a batch, resolved when it is committed (rejected with the writer's error). */
function writerThread(file: string, cacheSize: string, resourceLimits: ResourceLimits | undefined) {
  const worker = new Worker(WORKER_ENTRY, {
    workerData: { file, columns: [...COLUMNS], cacheSize },
    ...(resourceLimits ? { resourceLimits } : {}),
  });
  worker.unref();
  const pending = new Map<number, { resolve(result?: QueryAnswer): void; reject(error: Error): void }>();
  let next = 0;
  let stopped: Error | null = null;
  let onReady!: (limits: WriterLimits) => void;
  const ready = new Promise<WriterLimits>((resolve) => (onReady = resolve));
  const stop = (error: Error) => {
    stopped ??= error;
    for (const waiter of pending.values()) waiter.reject(error);
    pending.clear();
  };
  worker.on(
    'message',
    (answer: { id: number; ok: boolean; error?: string; result?: QueryAnswer; heapSizeLimit?: number; cacheSize?: number }) => {
      if (answer.id === 0) return onReady({ heapSizeLimit: answer.heapSizeLimit ?? 0, cacheSize: answer.cacheSize ?? 0 });
      const waiter = pending.get(answer.id);
      pending.delete(answer.id);
      if (answer.ok) waiter?.resolve(answer.result);
      else waiter?.reject(new Error(answer.error ?? 'journal writer failed'));
    },
  );
  // Out of heap (ERR_WORKER_OUT_OF_MEMORY) or any other death: the batch in flight is reported lost.
  worker.on('error', (error) => stop(error));
  worker.on('exit', (code) => stop(new Error(`the journal writer thread stopped (exit code ${code})`)));
  function post<T>(message: { rows: Row[] } | { query: { sql: string; parameters: unknown[] } }): Promise<T> {
    if (stopped) return Promise.reject(stopped);
    const id = (next += 1);
    return new Promise<T>((resolve, reject) => {
      pending.set(id, { resolve: resolve as (result?: QueryAnswer) => void, reject });
      worker.postMessage({ id, ...message });
    });
  }
  return {
    get alive(): boolean {
      return stopped === null;
    },
    /** Resolves once the thread runs, with its V8 heap limit and its connection's page cache as applied. */
    ready,
    /** Ends the thread at once, as a crash would (tests). */
    kill: () => worker.terminate(),
    /** From now on the thread holds the event loop (closing: the process waits for its last batch and its exit). */
    hold: () => worker.ref(),
    write(rows: Row[]): Promise<void> {
      return post<void>({ rows });
    },
    /** One compiled statement run on the writer's connection: its rows, or the rows it changed. */
    query(query: CompiledQuery): Promise<QueryAnswer> {
      return post<QueryAnswer>({ query: { sql: query.sql, parameters: [...query.parameters] } });
    },
    async close(): Promise<void> {
      if (stopped) return;
      const exited = new Promise((resolve) => worker.once('exit', resolve));
      worker.postMessage({ close: true });
      await exited;
    },
  };
}

/** A statement's answer from the writer's connection. */
interface QueryAnswer {
  rows: unknown[];
  changes: number;
}

/**
 * The journal's writer: a thread, replaced by a new one on the next batch or statement when it has
 * died — until close(): after it, batches and statements fail instead of starting a thread that
 * nothing would close (the run history's pruning sends its statements here too).
 */
function startWriter(file: string, cacheMb: number, resourceLimits: ResourceLimits | undefined) {
  const cacheSize = sqliteCacheSizePragma(cacheMb);
  let thread = writerThread(file, cacheSize, resourceLimits);
  let closed = false;
  const live = () => {
    if (closed) throw new Error('the delivery journal is closed');
    if (!thread.alive) thread = writerThread(file, cacheSize, resourceLimits);
    return thread;
  };
  return {
    get thread() {
      return thread;
    },
    write: async (rows: Row[]): Promise<void> => live().write(rows),
    query: async (query: CompiledQuery): Promise<QueryAnswer> => live().query(query),
    hold: () => thread.hold(),
    close: () => {
      closed = true;
      return thread.close();
    },
  };
}

const SEAL_CONTEXT = 'gw_deliveries.body';
const COLUMNS = [
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
/** PostgreSQL's type of each column that is not text. */
const NOT_TEXT: Partial<Record<(typeof COLUMNS)[number], string>> = {
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

/**
 * A batch of rows on PostgreSQL: one named prepared statement whose one parameter is the batch as a
 * JSON array of rows (each in COLUMNS order), whatever the batch's size. A multi-row VALUES list
 * of 22 parameters per row was parsed and planned again for every batch (an unnamed statement of
 * up to 4,400 parameters, a different text for each batch size).
 */
const INSERT_BATCH_POSTGRES = preparedQuery((db, v: { rows: string }) => ({
  compile: () =>
    sql`insert into gw_deliveries (${sql.join(COLUMNS.map((c) => sql.ref(c)))})
      select ${sql.join(COLUMNS.map((c, i) => (NOT_TEXT[c] ? sql`(r->>${sql.lit(i)})::${sql.raw(NOT_TEXT[c])}` : sql`r->>${sql.lit(i)}`)))}
      from jsonb_array_elements(${v.rows}::jsonb) as r`.compile(db),
}));

/**
 * A batch cut into runs of rows whose text adds up to at most `maxChars` (a row larger than that
 * goes alone), in order. On PostgreSQL a batch is one JSON parameter, and jsonb refuses a value
 * over 256 MiB: 200 kept requests of up to 1 MiB each (sealed, ~1.4 MiB of text) would exceed it
 * during an outage, exactly when every request is kept for replay. Characters, not bytes: JSON's
 * escapes can make a character up to 6 bytes, so 16 Mi characters stay under 96 MiB.
 */
export function chunkRows(rows: Row[], maxChars: number): Row[][] {
  const chunks: Row[][] = [];
  let chunk: Row[] = [];
  let chars = 0;
  for (const row of rows) {
    let size = 0;
    for (const value of row) size += typeof value === 'string' ? value.length + 3 : 16;
    if (chunk.length > 0 && chars + size > maxChars) {
      chunks.push(chunk);
      chunk = [];
      chars = 0;
    }
    chunk.push(row);
    chars += size;
  }
  if (chunk.length > 0) chunks.push(chunk);
  return chunks;
}

/** Where a row's `size_bytes` is among its values. */
const SIZE_COLUMN = COLUMNS.indexOf('size_bytes');

/** A row's values in COLUMNS order. */
export type Row = Array<GwDeliveriesTable[keyof GwDeliveriesTable]>;
const parseFields = (text: string | null): FieldError[] | null => (text ? (JSON.parse(text) as FieldError[]) : null);
/** A count as stored: a whole number, or null when absent (or not a number). */
const wholeOrNull = (value: number | null | undefined): number | null =>
  value === null || value === undefined || !Number.isFinite(value) ? null : Math.round(value);

const toDelivery = (row: Selectable<GwDeliveriesTable>): Delivery => ({
  id: row.id,
  requestId: row.request_id,
  receivedAt: new Date(Number(row.received_at)).toISOString(),
  method: row.method,
  route: row.route,
  vendor: row.vendor,
  storeId: row.store_id,
  connectionId: row.connection_id,
  eventType: row.event_type,
  eventId: row.event_id,
  transactionId: row.transaction_id,
  refundId: row.refund_id,
  status: Number(row.status),
  outcome: row.outcome,
  warning: row.warning,
  fields: parseFields(row.fields),
  durationMs: Number(row.duration_ms),
  skewSeconds: row.skew_seconds === null ? null : Number(row.skew_seconds),
  bodySha256: row.body_sha256,
  requestKept: row.body_sealed !== null,
  replayOf: row.replay_of,
  replayedBy: row.replayed_by,
  clientAddress: row.client_address,
  refusals: row.refusals === null ? 1 : Number(row.refusals),
  lastRequestId: row.last_request_id,
  authenticated: row.authenticated === null ? null : Number(row.authenticated) === 1,
  replayForced: Number(row.replay_forced ?? 0) === 1,
  pointsEarned: row.points_earned === null ? null : Number(row.points_earned),
  pointsReversed: row.points_reversed === null ? null : Number(row.points_reversed),
  stamps: row.stamps,
  nothingEarned: row.nothing_earned as NothingEarnedReason | null,
  failure: parseFailure(row.failure),
  recoveredBy: null,
  traceId: row.trace_id ?? null,
});

/**
 * A journal id that sorts by time: ms in base 36, a per-process sequence, and 48 random bits drawn
 * once per process (unique across processes without drawing randomness per entry). New rows land
 * at the end of the primary-key index instead of at random places in it, and entries of the same
 * millisecond keep the order they were recorded in.
 */
const PROCESS_TAG = randomBytes(6).toString('hex');
let sequence = 0;
const timeOrderedId = (atMs: number): string => {
  sequence = (sequence + 1) % 36 ** 5;
  return `${idFloor(atMs)}-${sequence.toString(36).padStart(5, '0')}-${PROCESS_TAG}`;
};

/**
 * The time an id begins with: the lowest id of an entry received at `ms` or later (every id has
 * this layout since migration 0012), so a range of ids is a range of time and the primary key
 * serves the list's order, its bounds and the pruning by age.
 */
export const idFloor = (ms: number): string => Math.max(0, Math.floor(ms)).toString(36).padStart(9, '0');

/** When the entry with this id was received (its first nine characters). */
const receivedAtOfId = (id: string): number => Number.parseInt(id.slice(0, 9), 36);

/**
 * The 32-bit key the journal indexes a transaction id by, after its region (migration 0008): 4
 * bytes in the index instead of the id's text. The high 16 bits are FNV-1a of all but the id's
 * last two characters, the low 16 bits those two characters (a byte each); that layout placed
 * ordered ids next to each other when the key led its index (migration 0007). Keys may collide:
 * lookups compare the key, then the id. Stored keys must stay valid: never change this function
 * without a migration.
 */
export function transactionKey(id: string): number {
  const cut = Math.max(0, id.length - 2);
  let tail = 0;
  for (let i = cut; i < id.length; i += 1) tail = (tail << 8) | (id.charCodeAt(i) & 0xff);
  return ((fnv1a(id, cut) >>> 16) << 16) | tail;
}

/** FNV-1a of the id's first `end` characters (UTF-16 code units), 32 bits unsigned. */
function fnv1a(id: string, end = id.length): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < end; i += 1) hash = Math.imul(hash ^ id.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/**
 * How many regions the request and transaction indexes are cut into (migration 0008): entries are
 * appended at the end of one of them. Fewer regions, fewer pages a batch dirties (64 cost the
 * writer ~4 µs more per entry than 16); more regions, shorter lookups (a lookup reads 1/16 of the
 * journal's index entries: 4.4 ms at 1,000,000 entries). Stored regions must stay valid: never
 * change this without a migration.
 */
const REGIONS = 16;

/** A hash's region and key (idRegion, requestKey): the request id is hashed once per entry for both. */
const regionOf = (hash: number): number => hash % REGIONS;
const keyOf = (hash: number): number => hash | 0;

/**
 * The region of the request or transaction index an id's entries go to (migration 0008), from a
 * hash of the whole id, so random and ordered ids alike spread evenly over the regions. Stored
 * regions must stay valid: never change this function without a migration.
 */
export const idRegion = (id: string): number => regionOf(fnv1a(id));

/**
 * The 32-bit key the request index compares after its region (migration 0008): the same hash, as a
 * signed integer (PostgreSQL's `integer`). Keys may collide: lookups compare the key, then the id.
 * Stored keys must stay valid: never change this function without a migration.
 */
export const requestKey = (id: string): number => keyOf(fnv1a(id));

/**
 * The inspector's list: newest first, `limit` + 1 rows (the extra one says whether a page follows).
 * With `connectionId`, the entries journalled since migration 0009 (by their region), or with
 * `journalledBefore` those journalled before it (their own partial index): list reads both.
 */
export function deliveriesQuery(
  db: Kysely<{ gw_deliveries: GwDeliveriesTable }>,
  filter: DeliveryFilter,
  limit: number,
  journalledBefore = false,
) {
  // A transaction's or a connection's entries are read from their region's run, in time order;
  // any other list from the primary key, whose ids begin with their time (migration 0012).
  const byRegion = Boolean(filter.transactionId || filter.connectionId || filter.requestId);
  let query = db
    .selectFrom('gw_deliveries')
    .selectAll()
    .limit(limit + 1);
  query = byRegion ? query.orderBy('received_at', 'desc').orderBy('id', 'desc') : query.orderBy('id', 'desc');
  if (filter.vendor) query = query.where('vendor', '=', filter.vendor);
  if (filter.store) query = query.where('store_id', '=', filter.store);
  if (filter.connectionId) query = ofConnection(query, filter.connectionId, journalledBefore);
  if (filter.status !== undefined) query = query.where('status', '=', filter.status);
  if (filter.code) query = query.where('outcome', '=', filter.code);
  if (filter.nothingEarned)
    query =
      filter.nothingEarned === 'any'
        ? query.where('nothing_earned', 'is not', null)
        : query.where('nothing_earned', '=', filter.nothingEarned);
  if (filter.transactionId) {
    // By its region and key (migration 0008); entries journalled before it have no region, those
    // before migration 0007 no key either: each kind has its own partial index.
    const id = filter.transactionId;
    const key = transactionKey(id);
    query = query.where((eb) =>
      eb.or([
        eb.and([eb('transaction_region', '=', idRegion(id)), eb('transaction_key', '=', key), eb('transaction_id', '=', id)]),
        eb.and([eb('transaction_region', 'is', null), eb('transaction_key', '=', key), eb('transaction_id', '=', id)]),
        eb.and([eb('transaction_key', 'is', null), eb('transaction_id', '=', id)]),
      ]),
    );
  }
  if (filter.requestId) query = query.where((eb) => withRequestId(eb, filter.requestId!));
  if (filter.since)
    query = byRegion ? query.where('received_at', '>=', filter.since.getTime()) : query.where('id', '>=', idFloor(filter.since.getTime()));
  if (filter.until)
    query = byRegion ? query.where('received_at', '<', filter.until.getTime()) : query.where('id', '<', idFloor(filter.until.getTime()));
  return filter.cursor ? belowCursor(query, filter.cursor, byRegion) : query;
}

type DeliveriesQuery = SelectQueryBuilder<{ gw_deliveries: GwDeliveriesTable }, 'gw_deliveries', any>;

/**
 * One connection's entries: those journalled since migration 0009 by their region (the region's
 * run of its index), or with `journalledBefore` those journalled before it (their partial index).
 */
const ofConnection = <Q extends DeliveriesQuery>(query: Q, connectionId: string, journalledBefore: boolean): Q =>
  query
    .where('connection_region', journalledBefore ? 'is' : '=', journalledBefore ? null : idRegion(connectionId))
    .where('connection_id', '=', connectionId) as Q;

/** The list's order: received_at, then id, both descending (ids are ASCII of one length and layout). */
const newestFirst = (a: { received_at: number | string; id: string }, b: { received_at: number | string; id: string }): number =>
  Number(b.received_at) - Number(a.received_at) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

/** A position in the list's order (received_at, then id, both descending), as a cursor. */
const cursorOf = (row: { received_at: number | string; id: string }): string =>
  Buffer.from(`${row.received_at}|${row.id}`).toString('base64url');

/** The cursor that continues a list after this delivery (a caller filtering a page further, as the vendor's log by status). */
export const cursorAfter = (delivery: Pick<Delivery, 'id' | 'receivedAt'>): string =>
  cursorOf({ received_at: Date.parse(delivery.receivedAt), id: delivery.id });

/**
 * The entries after a position in the list's order (`below`: older, or as old with a smaller id),
 * or at it and before it (`atOrAbove`). The range on received_at alone is said as well: the OR is
 * not a range SQLite's planner reads an index by.
 */
function fromPosition<Q extends DeliveriesQuery>(query: Q, at: number, id: string, side: 'below' | 'atOrAbove', byRegion: boolean): Q {
  // In the primary key's order the id alone is the position.
  if (!byRegion) return query.where('id', side === 'below' ? '<' : '>=', id) as Q;
  return (
    side === 'below'
      ? query
          .where('received_at', '<=', at)
          .where((eb) => eb.or([eb('received_at', '<', at), eb.and([eb('received_at', '=', at), eb('id', '<', id)])]))
      : query
          .where('received_at', '>=', at)
          .where((eb) => eb.or([eb('received_at', '>', at), eb.and([eb('received_at', '=', at), eb('id', '>=', id)])]))
  ) as Q;
}

/** Only the entries after `cursor` in the list's order (a cursor that does not parse bounds nothing). */
function belowCursor<Q extends DeliveriesQuery>(query: Q, cursor: string, byRegion: boolean): Q {
  const [at, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const atMs = Number(at);
  return Number.isFinite(atMs) && id ? fromPosition(query, atMs, id, 'below', byRegion) : query;
}

/**
 * Filters no index serves (vendor, store, status, outcome, nothing earned) without one that an index does
 * (transaction id, connection): the list then reads the journal newest first and tests each
 * entry, and a filter that matches nothing reads all of it (1,000,000 entries: ~270 ms of SQLite
 * on the event loop, which better-sqlite3 holds for the statement's length).
 */
const scansJournal = (filter: DeliveryFilter): boolean =>
  !filter.transactionId &&
  !filter.requestId &&
  !filter.connectionId &&
  (filter.vendor !== undefined ||
    filter.store !== undefined ||
    filter.status !== undefined ||
    filter.code !== undefined ||
    filter.nothingEarned !== undefined);

/**
 * The entry `window` places below `cursor` (and before `until`) in the list's order: the oldest
 * one a window of the search examines. Read from the primary key alone.
 */
export function windowEndQuery(
  db: Kysely<{ gw_deliveries: GwDeliveriesTable }>,
  filter: DeliveryFilter,
  cursor: string | undefined,
  window: number,
) {
  let query = db
    .selectFrom('gw_deliveries')
    .select('id')
    .orderBy('id', 'desc')
    .offset(window - 1)
    .limit(1);
  if (filter.until) query = query.where('id', '<', idFloor(filter.until.getTime()));
  return cursor ? belowCursor(query, cursor, false) : query;
}

/**
 * The newest entry with this request id, by its region and key (migration 0008); entries
 * journalled before it have no region: their own partial index.
 */
export function newestByRequestIdQuery(db: Kysely<{ gw_deliveries: GwDeliveriesTable }>, requestId: string, limit = 1) {
  return db
    .selectFrom('gw_deliveries')
    .selectAll()
    .where((eb) => withRequestId(eb, requestId))
    .orderBy('received_at', 'desc')
    .limit(limit);
}

/** Entries with this request id: by its region and key (migration 0008), older ones by their partial index. */
const withRequestId = (eb: ExpressionBuilder<{ gw_deliveries: GwDeliveriesTable }, 'gw_deliveries'>, requestId: string) =>
  eb.or([
    eb.and([
      eb('request_region', '=', idRegion(requestId)),
      eb('request_key', '=', requestKey(requestId)),
      eb('request_id', '=', requestId),
    ]),
    eb.and([eb('request_region', 'is', null), eb('request_id', '=', requestId)]),
  ]);

/** The entries replaying entry `id`, oldest first, through their partial index (migration 0010). */
export function replaysQuery(db: Kysely<{ gw_deliveries: GwDeliveriesTable }>, id: string) {
  return db.selectFrom('gw_deliveries').selectAll().where('replay_of', '=', id).orderBy('received_at', 'asc');
}

/**
 * The replays that answered (2xx) any of these entries, oldest first: the first one of each
 * recovered it. Through the replays' partial index (migration 0010), one statement a page.
 */
export function recoveriesQuery(db: Kysely<{ gw_deliveries: GwDeliveriesTable }>, ids: readonly string[]) {
  return db
    .selectFrom('gw_deliveries')
    .select(['id', 'replay_of'])
    .where('replay_of', 'in', ids)
    .where('status', '>=', 200)
    .where('status', '<', 300)
    .orderBy('received_at', 'asc');
}

export type DeliveryJournal = Awaited<ReturnType<typeof createDeliveryJournal>>;

/** Entries carrying one request id that a lookup reads and lists at most. */
const MATCHES_SHOWN = 50;

/** chooseByRequestId over rows read with their deliveries. */
function chooseByRequestIdRows<T extends { delivery: Delivery }>(matches: T[]): { chosen: T | null; ambiguous: boolean } {
  const { chosen, ambiguous } = chooseByRequestId(matches.map((m) => m.delivery));
  return { chosen: matches.find((m) => m.delivery === chosen) ?? null, ambiguous };
}

/**
 * The delivery journal, on either dialect. `record` only queues (a request never waits for it nor
 * fails because of it); the queue is written in batches every `flushMs`, and when the database is
 * slow the backlog is bounded: past `maxBacklog` new entries are dropped and counted. The ledger's
 * exactly-once guarantee does not depend on it in any way.
 */
export async function createDeliveryJournal(options: DeliveryJournalOptions) {
  const db = options.database.db as Kysely<{ gw_deliveries: GwDeliveriesTable }>;
  const box = createSecretBox(options.masterKey);
  const now = options.now ?? (() => new Date());
  const maxBacklog = options.maxBacklog ?? 10_000;
  const queue: Row[] = [];
  const writer =
    options.sqliteFile && options.database.dialect === 'sqlite'
      ? startWriter(options.sqliteFile, options.sqliteCacheMb ?? SQLITE_DEFAULT_CACHE_MB, options.writerResourceLimits)
      : null;
  let dropped = 0;
  let prunedEarly = 0;
  let writing: Promise<void> = Promise.resolve();
  const aggregates = createRefusalAggregates();
  const maxBytes = options.maxBytes ?? 2 * 1024 * 1024 * 1024;
  /** Bytes this process wrote since the budget was last checked (a tenth of it checks it again, between the hourly prunings). */
  let writtenSinceBudget = 0;
  let budgetCheck: Promise<number> | null = null;

  /**
   * Sets `recoveredBy` on the failed entries (5xx, request kept) that a replay answered: one
   * statement for all of them, none when there are none.
   */
  async function withRecoveries(deliveries: Delivery[]): Promise<Delivery[]> {
    const failed = deliveries.filter((d) => d.status >= 500 && d.requestKept).map((d) => d.id);
    if (failed.length === 0) return deliveries;
    const recovered = new Map<string, string>();
    for (const row of await recoveriesQuery(db, failed).execute())
      if (row.replay_of && !recovered.has(row.replay_of)) recovered.set(row.replay_of, row.id);
    return deliveries.map((d) => (recovered.has(d.id) ? { ...d, recoveredBy: recovered.get(d.id)! } : d));
  }

  /**
   * One entry as its column values, in COLUMNS order (what both writers bind; no object per row).
   * Every text has a cap (clipText, clipFields); ids are cut without a mark, free text says it was
   * clipped. `size_bytes` is what the row stores (the byte budget's measure).
   */
  function row(
    input: DeliveryInput,
    request: RecordedRequest | undefined,
    body: Buffer | undefined,
    id = timeOrderedId(input.receivedAt.getTime()),
    clientAddress = input.clientAddress,
  ): Row {
    const at = input.receivedAt.getTime();
    const transactionId = clipText(input.transactionId, 255, false);
    const requestId = clipText(input.requestId, 128, false)!;
    const requestHash = fnv1a(requestId);
    const connectionId = clipText(input.connectionId, 255, false);
    const values: Row = [
      id,
      requestId,
      regionOf(requestHash),
      keyOf(requestHash),
      at,
      clipText(input.method, 16)!,
      clipText(input.route)!,
      clipText(input.vendor),
      clipText(input.storeId),
      connectionId,
      connectionId === null ? null : idRegion(connectionId),
      clipText(input.eventType),
      clipText(input.eventId, 255, false),
      transactionId,
      transactionId === null ? null : transactionKey(transactionId),
      transactionId === null ? null : idRegion(transactionId),
      clipText(input.refundId, 255, false),
      input.status,
      clipText(input.outcome),
      clipText(input.warning, 1000),
      clipFields(input.fields),
      Math.max(0, Math.round(input.durationMs)),
      input.skewSeconds == null || !Number.isFinite(input.skewSeconds) ? null : Math.round(input.skewSeconds),
      body && body.length > 0 ? hash('sha256', body, 'hex') : null,
      request ? box.seal(JSON.stringify({ headers: request.headers, body: request.body.toString('base64') }), SEAL_CONTEXT) : null,
      clipText(input.replayOf, 255, false),
      clipText(input.replayedBy, 255, false),
      clipText(clientAddress, 64),
      null,
      null,
      input.authenticated == null ? null : input.authenticated ? 1 : 0,
      null,
      input.replayForced ? 1 : null,
      wholeOrNull(input.pointsEarned),
      wholeOrNull(input.pointsReversed),
      clipText(input.stamps),
      clipText(input.nothingEarned, 32, false),
      clipFailure(input.failure),
      clipText(input.traceId, 32, false),
    ];
    let size = ROW_OVERHEAD_BYTES;
    for (const value of values) if (typeof value === 'string') size += value.length;
    values[SIZE_COLUMN] = size;
    return values;
  }

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

  const postgres = options.database.dialect === 'postgres';
  const searchWindow = Math.max(1, options.searchWindow ?? 20_000);
  const searchWindows = Math.max(1, options.searchWindows ?? 10);
  const maxStatementChars = options.maxStatementChars ?? 16 * 1024 * 1024;

  async function flush(): Promise<void> {
    const writes = writing.then(async () => {
      while (queue.length > 0) {
        const batch = queue.splice(0, writer ? 2_000 : 200);
        try {
          if (writer) await writer.write(batch);
          else if (postgres) {
            for (const rows of chunkRows(batch, maxStatementChars)) await INSERT_BATCH_POSTGRES(db, { rows: JSON.stringify(rows) });
          } else await db.executeQuery(insertOf(batch));
          for (const values of batch) writtenSinceBudget += Number(values[SIZE_COLUMN]);
        } catch (error) {
          options.onError?.(error, batch.length);
        }
      }
      // Aggregated refusals: their rows' counts, after the rows themselves (one statement per client address and minute).
      for (const update of aggregates.take()) {
        try {
          await run(
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
    if (writtenSinceBudget > maxBytes / 10 && !budgetCheck) {
      writtenSinceBudget = 0;
      budgetCheck = pruneEarly().finally(() => (budgetCheck = null));
      budgetCheck.catch((error: unknown) => options.onError?.(error, 0));
    }
  }
  const timer = setInterval(() => void flush(), options.flushMs ?? 250);
  timer.unref();

  /**
   * One of the pruning's statements: on SQLite with the writer thread, run on its connection, so
   * that deleting many rows never holds the event loop (better-sqlite3 is synchronous: the hourly
   * pruning of a journal of 1,000,000 entries held it ~0.5 s, of 210,000 over a connection's bound
   * ~1 s; docs/benchmarks.md); elsewhere through `database`.
   */
  async function run(query: CompiledQuery): Promise<QueryAnswer> {
    if (writer) return writer.query(query);
    const result = await db.executeQuery(query);
    return { rows: result.rows, changes: Number(result.numAffectedRows ?? 0) };
  }

  /** Entries per delete statement: each a short write transaction, so other writers of the file wait little. */
  const PRUNE_CHUNK = 5_000;
  const selectIds = db.selectFrom('gw_deliveries').select('id');

  /** Delete the entries `where` selects, PRUNE_CHUNK at a time; how many were deleted. */
  async function deleteInChunks(where: (query: typeof selectIds) => typeof selectIds): Promise<number> {
    let removed = 0;
    for (;;) {
      const ids = where(selectIds).limit(PRUNE_CHUNK);
      const { changes } = await run(db.deleteFrom('gw_deliveries').where('id', 'in', ids).compile());
      removed += changes;
      if (changes < PRUNE_CHUNK) return removed;
    }
  }

  async function prune(): Promise<number> {
    await budgetCheck?.catch(() => undefined);
    const cutoff = now().getTime() - (options.retentionDays ?? 14) * 24 * 60 * 60 * 1000;
    // By the primary key: ids begin with their time (migration 0012).
    let removed = await deleteInChunks((q) => q.where('id', '<', idFloor(cutoff)));
    const cap = options.maxPerConnection ?? 100_000;
    // Counted through the connections' index (migration 0009), a region per statement (a count
    // of a journal of millions in one statement would hold the writer for most of a second while
    // the batches queue behind it), and entries journalled before it through their own index.
    const counts = new Map<string, { regioned: number; before: number }>();
    const countOf = (id: string) => counts.get(id) ?? counts.set(id, { regioned: 0, before: 0 }).get(id)!;
    const perConnection = db
      .selectFrom('gw_deliveries')
      .select(['connection_id', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy('connection_id');
    for (let region = 0; region < REGIONS; region += 1) {
      const { rows } = await run(perConnection.where('connection_region', '=', region).compile());
      for (const row of rows as Array<{ connection_id: string; n: number | string }>) countOf(row.connection_id).regioned = Number(row.n);
    }
    const { rows: before } = await run(
      perConnection.where('connection_region', 'is', null).where('connection_id', 'is not', null).compile(),
    );
    for (const row of before as Array<{ connection_id: string; n: number | string }>) countOf(row.connection_id).before = Number(row.n);
    for (const [connectionId, { regioned, before: earlier }] of counts) {
      if (regioned + earlier <= cap) continue;
      // Entries journalled before the migration are older than those after it: the newest `cap`
      // are taken from the regioned ones first.
      const journalledBefore = regioned < cap;
      const keepFrom = (
        await run(
          ofConnection(db.selectFrom('gw_deliveries').select('received_at'), connectionId, journalledBefore)
            .orderBy('received_at', 'desc')
            .offset((journalledBefore ? cap - regioned : cap) - 1)
            .limit(1)
            .compile(),
        )
      ).rows[0] as { received_at: number | string } | undefined;
      if (!keepFrom) continue;
      const cut = Number(keepFrom.received_at);
      removed += await deleteInChunks((q) => ofConnection(q, connectionId, journalledBefore).where('received_at', '<', cut));
      if (!journalledBefore && earlier > 0)
        removed += await deleteInChunks((q) => ofConnection(q, connectionId, true).where('received_at', '<', cut));
    }
    return removed + (await pruneEarly());
  }

  /** The byte budget's pass (pruneToBudget): entries deleted before their days are up, counted for the metric. */
  async function pruneEarly(): Promise<number> {
    const removed = await pruneToBudget({
      db,
      run,
      deleteBelow: (id) => deleteInChunks((q) => q.where('id', '<', id)),
      idFloor,
      maxBytes,
      nowMs: now().getTime(),
    });
    prunedEarly += removed;
    return removed;
  }

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
        if (queue.length >= maxBacklog) {
          dropped += 1;
          return;
        }
        queue.push(row(input, request, body, id, address));
      } catch (error) {
        options.onError?.(error, 1);
      }
    },
    flush,
    /**
     * Entries waiting to be written (the gateway_journal_backlog gauge), entries dropped since
     * start, and entries the byte budget pruned before their days were up (gateway_journal_pruned_early_total).
     */
    backlog: () => ({ waiting: queue.length, dropped, prunedEarly }),
    /** The SQLite writer thread now (null when batches are written through `database`). */
    writerThread: () => writer?.thread ?? null,
    /**
     * One maintenance statement on the journal's connection to the gateway's database: on SQLite
     * its writer thread, off the event loop (the run history's pruning uses it too); elsewhere
     * the journal's `database`. Its rows, or how many rows it changed.
     */
    runStatement: run,
    /**
     * Newest first; `nextCursor` continues the list. A filter that only an entry's own fields can
     * answer (scansJournal) is searched in windows of `searchWindow` entries, at most
     * `searchWindows` of them a page, each its own statement: no page reads more than their
     * product, and the event loop runs between them. A page whose search stopped there says how
     * far back it looked (`searchedBackTo`).
     */
    async list(filter: DeliveryFilter = {}): Promise<DeliveryPage> {
      await flush(); // the inspector sees every entry recorded before it asked
      const limit = Math.min(Math.max(1, filter.limit ?? 50), 500);
      const pageOf = async (rows: Array<Selectable<GwDeliveriesTable>>): Promise<DeliveryPage> => {
        const page = rows.slice(0, limit);
        const last = page.at(-1);
        return {
          deliveries: await withRecoveries(page.map(toDelivery)),
          nextCursor: rows.length > limit && last ? cursorOf(last) : null,
          searchedBackTo: null,
        };
      };
      if (filter.connectionId) {
        // Since migration 0009 and before it: two index-ordered reads, merged.
        const both = [
          ...(await deliveriesQuery(db, filter, limit).execute()),
          ...(await deliveriesQuery(db, filter, limit, true).execute()),
        ];
        return pageOf(both.sort(newestFirst).slice(0, limit + 1));
      }
      if (!scansJournal(filter)) return pageOf(await deliveriesQuery(db, filter, limit).execute());
      const found: Array<Selectable<GwDeliveriesTable>> = [];
      let cursor = filter.cursor;
      for (let window = 1; ; window += 1) {
        const endRow = await windowEndQuery(db, filter, cursor, searchWindow).executeTakeFirst();
        const end = endRow && { id: endRow.id, received_at: receivedAtOfId(endRow.id) };
        const query = deliveriesQuery(db, { ...filter, cursor }, limit - found.length);
        found.push(...(await (end ? fromPosition(query, end.received_at, end.id, 'atOrAbove', false) : query).execute()));
        // A full page, or nothing older left to search (the journal's end, or past `since`).
        if (found.length > limit || !end || (filter.since && end.received_at < filter.since.getTime())) return pageOf(found);
        cursor = cursorOf(end);
        if (window === searchWindows)
          return {
            deliveries: await withRecoveries(found.map(toDelivery)),
            nextCursor: cursor,
            searchedBackTo: new Date(end.received_at).toISOString(),
          };
      }
    },
    /**
     * An entry by its journal id, or by a request id (the X-Request-ID a vendor quotes, which any
     * caller may reuse): then the one chooseByRequestId picks (the newest that proved its
     * connection), with every entry carrying that id in `matches` (newest first, at most 50) and
     * `ambiguous` when they belong to several connections. By journal id: `matches` empty.
     */
    async get(
      idOrRequestId: string,
    ): Promise<(Delivery & { request: RecordedRequest | null; matches: RequestIdMatch[]; ambiguous: boolean }) | null> {
      await flush();
      const byId = await db.selectFrom('gw_deliveries').selectAll().where('id', '=', idOrRequestId).executeTakeFirst();
      const rows = byId ? [] : await newestByRequestIdQuery(db, idOrRequestId, MATCHES_SHOWN).execute();
      const matches = rows.map((row) => ({ row, delivery: toDelivery(row) }));
      const { chosen, ambiguous } = byId
        ? { chosen: { row: byId, delivery: toDelivery(byId) }, ambiguous: false }
        : chooseByRequestIdRows(matches);
      if (!chosen) return null;
      const found = chosen.row;
      const kept = found.body_sealed
        ? (JSON.parse(box.open(found.body_sealed, SEAL_CONTEXT)) as { headers: Record<string, string>; body: string })
        : null;
      const [delivery] = await withRecoveries([chosen.delivery]);
      return {
        ...delivery!,
        request: kept ? { headers: kept.headers, body: Buffer.from(kept.body, 'base64') } : null,
        matches: matches.map((m) => matchOf(m.delivery)),
        ambiguous,
      };
    },
    /** Entries replaying this one. */
    async replaysOf(id: string): Promise<Delivery[]> {
      await flush();
      return (await replaysQuery(db, id).execute()).map(toDelivery);
    },
    prune,
    async close(): Promise<void> {
      clearInterval(timer);
      // The writer thread does not hold the event loop while the gateway runs (unref): while
      // closing it must, or a process with nothing else left would exit before the last batch.
      writer?.hold();
      await flush();
      // A byte budget check under way finishes on the writer before it closes.
      await budgetCheck?.catch(() => undefined);
      await writer?.close();
    },
  };
}
