import { sql, type CompiledQuery, type Kysely } from 'kysely';
import { idFloor, receivedAtOfId } from './journal-ids.js';

/** What one journal row stores besides its text: numbers, the row's header and its index entries. */
export const ROW_OVERHEAD_BYTES = 160;
/** Rows journalled before `size_bytes` existed (migration 0013) count as this many bytes. */
export const UNSIZED_ROW_BYTES = 600;

const HOUR = 60 * 60 * 1000;
const MINUTE = 60 * 1000;

export interface ByteBudgetPass {
  db: Kysely<any>;
  /** Which database holds the journal: how its stored size is read. */
  dialect: 'sqlite' | 'postgres';
  /** One statement on the journal's connection (its writer thread on SQLite). */
  run: (query: CompiledQuery) => Promise<{ rows: unknown[] }>;
  /** Deletes every entry whose id is below `id` (in chunks); how many. */
  deleteBelow: (id: string) => Promise<number>;
  maxBytes: number;
  nowMs: number;
}

/**
 * What the journal occupies where it is stored, read from the database's own accounting in one
 * statement: on SQLite the pages in use of the whole file (the journal and the gateway's other
 * tables, so never less than the journal's share), on PostgreSQL the table with its indexes and
 * TOAST (`pg_total_relation_size`).
 */
export async function storedJournalBytes(pass: Pick<ByteBudgetPass, 'db' | 'run' | 'dialect'>): Promise<number> {
  const query =
    pass.dialect === 'postgres'
      ? sql<{ bytes: string }>`select pg_total_relation_size('gw_deliveries'::regclass) as bytes`
      : sql<{
          bytes: number;
        }>`select (p.page_count - f.freelist_count) * s.page_size as bytes from pragma_page_count() p, pragma_freelist_count() f, pragma_page_size() s`;
  const row = (await pass.run(query.compile(pass.db))).rows[0] as { bytes: number | string } | undefined;
  return Number(row?.bytes ?? 0);
}

/**
 * Keeps the whole journal within `maxBytes` (GATEWAY_JOURNAL_MB): its entries' bytes are summed
 * newest first, an hour of ids a statement (a range of the primary key: ids begin with their
 * time), and where the sum passes the budget the hour is summed again a minute a statement; every
 * entry before the minute that passes it is deleted, oldest first, whatever its age. Short
 * statements with the writer free between them, not one sum over millions of rows. Nothing of
 * that runs while what the journal occupies in the database (storedJournalBytes) is within the
 * budget: summing its entries reads every page of it (914 MB for 2,000,000 entries, at every
 * start and every hour). How many entries went.
 */
export async function pruneToBudget(pass: ByteBudgetPass): Promise<number> {
  const { db, run } = pass;
  if ((await storedJournalBytes(pass)) <= pass.maxBytes) return 0;
  const oldest = (await run(db.selectFrom('gw_deliveries').select('id').orderBy('id', 'asc').limit(1).compile())).rows[0] as
    { id: string } | undefined;
  if (!oldest) return 0;
  const oldestMs = receivedAtOfId(oldest.id);
  const bytesBetween = async (fromMs: number, toMs: number | null): Promise<number> => {
    let query = db
      .selectFrom('gw_deliveries')
      .select(sql<number | string | null>`sum(coalesce(size_bytes, ${sql.lit(UNSIZED_ROW_BYTES)}))`.as('bytes'))
      .where('id', '>=', idFloor(fromMs));
    if (toMs !== null) query = query.where('id', '<', idFloor(toMs));
    const row = (await run(query.compile())).rows[0] as { bytes: number | string | null } | undefined;
    return Number(row?.bytes ?? 0);
  };
  let total = 0;
  // The first window has no upper bound: entries stamped a moment ahead of this clock count too.
  let upper: number | null = null;
  for (let lower = Math.floor(pass.nowMs / HOUR) * HOUR; upper === null || upper > oldestMs; lower -= HOUR) {
    const bytes = await bytesBetween(lower, upper);
    if (total + bytes > pass.maxBytes) {
      let minuteUpper: number | null = upper;
      for (let minute = (upper ?? Math.max(pass.nowMs, lower + HOUR)) - MINUTE; ; minute -= MINUTE) {
        const inMinute = await bytesBetween(minute, minuteUpper);
        if (total + inMinute > pass.maxBytes || minute <= lower) return pass.deleteBelow(idFloor(minuteUpper ?? minute + MINUTE));
        total += inMinute;
        minuteUpper = minute;
      }
    }
    total += bytes;
    upper = lower;
  }
  return 0;
}
