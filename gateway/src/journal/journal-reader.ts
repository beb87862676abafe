import type { Selectable } from 'kysely';
import { chooseByRequestId, matchOf, type RequestIdMatch } from './choose-by-request-id.js';
import { receivedAtOfId } from './journal-ids.js';
import {
  cursorOf,
  deliveriesQuery,
  fromPosition,
  newestByRequestIdQuery,
  newestFirst,
  recoveriesQuery,
  replaysQuery,
  scansJournal,
  windowEndQuery,
} from './journal-queries.js';
import { toDelivery, type journalRows } from './journal-rows.js';
import type { Delivery, DeliveryFilter, DeliveryPage, GwDeliveriesTable, JournalDb, RecordedRequest } from './journal-types.js';

/** Entries carrying one request id that a lookup reads and lists at most. */
const MATCHES_SHOWN = 50;

/** chooseByRequestId over rows read with their deliveries. */
function chooseByRequestIdRows<T extends { delivery: Delivery }>(matches: T[]): { chosen: T | null; ambiguous: boolean } {
  const { chosen, ambiguous } = chooseByRequestId(matches.map((m) => m.delivery));
  return { chosen: matches.find((m) => m.delivery === chosen) ?? null, ambiguous };
}

/**
 * What the inspector reads: the list, an entry, its replays. Each reads every entry recorded
 * before it asked (`flush` first).
 */
export function journalReader(options: {
  db: JournalDb;
  rows: ReturnType<typeof journalRows>;
  flush: () => Promise<void>;
  /** Entries one statement of a list's search examines. */
  searchWindow: number;
  /** Statements of that size one page's search runs at most. */
  searchWindows: number;
}) {
  const { db, rows: entryRows, flush, searchWindow, searchWindows } = options;

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

  return {
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
      const request = entryRows.requestOf(chosen.row);
      const [delivery] = await withRecoveries([chosen.delivery]);
      return {
        ...delivery!,
        request,
        matches: matches.map((m) => matchOf(m.delivery)),
        ambiguous,
      };
    },
    /** Entries replaying this one. */
    async replaysOf(id: string): Promise<Delivery[]> {
      await flush();
      return (await replaysQuery(db, id).execute()).map(toDelivery);
    },
  };
}
