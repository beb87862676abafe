import type { ExpressionBuilder, SelectQueryBuilder } from 'kysely';
import { idFloor, idRegion, requestIdTime, requestKey, transactionKey } from './journal-ids.js';
import type { Delivery, DeliveryFilter, GwDeliveriesTable, JournalDb } from './journal-types.js';

// The journal's statements and its list's order: which index each lookup reads (the query plan
// tests in journal-queries.test.ts hold them to it), and the cursors that continue a list.

/**
 * The inspector's list: newest first, `limit` + 1 rows (the extra one says whether a page follows).
 * With `connectionId`, the entries journalled since migration 0009 (by their region), or with
 * `journalledBefore` those journalled before it (their own partial index): list reads both.
 */
export function deliveriesQuery(db: JournalDb, filter: DeliveryFilter, limit: number, journalledBefore = false) {
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
export const ofConnection = <Q extends DeliveriesQuery>(query: Q, connectionId: string, journalledBefore: boolean): Q =>
  query
    .where('connection_region', journalledBefore ? 'is' : '=', journalledBefore ? null : idRegion(connectionId))
    .where('connection_id', '=', connectionId) as Q;

/** The list's order: received_at, then id, both descending (ids are ASCII of one length and layout). */
export const newestFirst = (a: { received_at: number | string; id: string }, b: { received_at: number | string; id: string }): number =>
  Number(b.received_at) - Number(a.received_at) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

/** A position in the list's order (received_at, then id, both descending), as a cursor. */
export const cursorOf = (row: { received_at: number | string; id: string }): string =>
  Buffer.from(`${row.received_at}|${row.id}`).toString('base64url');

/** The cursor that continues a list after this delivery (a caller filtering a page further, as the vendor's log by status). */
export const cursorAfter = (delivery: Pick<Delivery, 'id' | 'receivedAt'>): string =>
  cursorOf({ received_at: Date.parse(delivery.receivedAt), id: delivery.id });

/**
 * The entries after a position in the list's order (`below`: older, or as old with a smaller id),
 * or at it and before it (`atOrAbove`). The range on received_at alone is said as well: the OR is
 * not a range SQLite's planner reads an index by.
 */
export function fromPosition<Q extends DeliveriesQuery>(
  query: Q,
  at: number,
  id: string,
  side: 'below' | 'atOrAbove',
  byRegion: boolean,
): Q {
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
export const scansJournal = (filter: DeliveryFilter): boolean =>
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
export function windowEndQuery(db: JournalDb, filter: DeliveryFilter, cursor: string | undefined, window: number) {
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
export function newestByRequestIdQuery(db: JournalDb, requestId: string, limit = 1) {
  return (
    db
      .selectFrom('gw_deliveries')
      .selectAll()
      .where((eb) => withRequestId(eb, requestId))
      // The list's order: entries of one millisecond by journal id (the order they were journalled).
      .orderBy('received_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
  );
}

/**
 * Entries with this request id: by its region and key (migration 0008), older ones by their partial
 * index, and when the id carries a time (a UUIDv7, as the gateway generates) those received at that
 * millisecond by the primary key's range of it (migration 0016: they have no key).
 */
function withRequestId(eb: ExpressionBuilder<{ gw_deliveries: GwDeliveriesTable }, 'gw_deliveries'>, requestId: string) {
  const at = requestIdTime(requestId);
  return eb.or([
    eb.and([
      eb('request_region', '=', idRegion(requestId)),
      eb('request_key', '=', requestKey(requestId)),
      eb('request_id', '=', requestId),
    ]),
    eb.and([eb('request_region', 'is', null), eb('request_id', '=', requestId)]),
    ...(at === undefined ? [] : [eb.and([eb('id', '>=', idFloor(at)), eb('id', '<', idFloor(at + 1)), eb('request_id', '=', requestId)])]),
  ]);
}

/** The entries replaying entry `id`, oldest first (those of one millisecond in the order journalled), through their partial index (migration 0010). */
export function replaysQuery(db: JournalDb, id: string) {
  return db.selectFrom('gw_deliveries').selectAll().where('replay_of', '=', id).orderBy('received_at', 'asc').orderBy('id', 'asc');
}

/**
 * The replays that answered (2xx) any of these entries, oldest first: the first one of each
 * recovered it. Through the replays' partial index (migration 0010), one statement a page.
 */
export function recoveriesQuery(db: JournalDb, ids: readonly string[]) {
  return db
    .selectFrom('gw_deliveries')
    .select(['id', 'replay_of'])
    .where('replay_of', 'in', ids)
    .where('status', '>=', 200)
    .where('status', '<', 300)
    .orderBy('received_at', 'asc')
    .orderBy('id', 'asc');
}
