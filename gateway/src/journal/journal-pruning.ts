import type { CompiledQuery } from 'kysely';
import { pruneToBudget } from './byte-budget.js';
import { idFloor, REGIONS } from './journal-ids.js';
import { ofConnection } from './journal-queries.js';
import type { JournalDb } from './journal-types.js';
import type { QueryAnswer } from './journal-writer.js';

/**
 * The journal's pruning: the hourly pass (entries past their days, a connection's beyond its
 * bound, then the byte budget) and the byte budget's own pass between them, once a tenth of the
 * budget has been written since it was last checked. Every statement goes through `run` (on SQLite
 * the writer thread's connection).
 */
export function journalPruning(options: {
  db: JournalDb;
  dialect: 'sqlite' | 'postgres';
  run: (query: CompiledQuery) => Promise<QueryAnswer>;
  now: () => Date;
  /** GATEWAY_JOURNAL_DAYS. */
  retentionDays: number;
  maxPerConnection: number;
  maxBytes: number;
  onError?: ((error: unknown, dropped: number) => void) | undefined;
}) {
  const { db, run, now, retentionDays, maxPerConnection: cap, maxBytes } = options;
  let prunedEarly = 0;
  /** Bytes this process wrote since the budget was last checked (a tenth of it checks it again, between the hourly prunings). */
  let writtenSinceBudget = 0;
  let budgetCheck: Promise<number> | null = null;

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
    const cutoff = now().getTime() - retentionDays * 24 * 60 * 60 * 1000;
    // By the primary key: ids begin with their time (migration 0012).
    let removed = await deleteInChunks((q) => q.where('id', '<', idFloor(cutoff)));
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
      dialect: options.dialect,
      run,
      deleteBelow: (id) => deleteInChunks((q) => q.where('id', '<', id)),
      maxBytes,
      nowMs: now().getTime(),
    });
    prunedEarly += removed;
    return removed;
  }

  return {
    prune,
    /** A batch was written: its rows' bytes (their `size_bytes` added up) count towards the next check of the budget. */
    wrote(sizeBytes: number): void {
      writtenSinceBudget += sizeBytes;
    },
    /** After a flush: the byte budget's pass, in the background, once a tenth of the budget was written since the last. */
    checkBudget(): void {
      if (writtenSinceBudget > maxBytes / 10 && !budgetCheck) {
        writtenSinceBudget = 0;
        budgetCheck = pruneEarly().finally(() => (budgetCheck = null));
        budgetCheck.catch((error: unknown) => options.onError?.(error, 0));
      }
    },
    /** Settles once a check of the budget under way has finished (closing waits for it). */
    settled: async (): Promise<void> => {
      await budgetCheck?.catch(() => undefined);
    },
    /** Entries the byte budget pruned before their days were up (gateway_journal_pruned_early_total). */
    prunedEarly: () => prunedEarly,
  };
}
