import { randomUUID } from 'node:crypto';
import { isUniqueViolation, type SqlDatabase } from '@loyalty-gateway/storage';
import { sql, type Kysely, type Selectable } from 'kysely';
import {
  ABANDONED_AFTER_MS,
  deleteRuns,
  finishedRunsBefore,
  newestRunsQuery,
  type RunListFilter,
  type StatementRunner,
} from '../stores/run-history.js';

interface GwReconcileRunsTable {
  id: string;
  vendor: string;
  connection_id: string;
  trigger: 'schedule' | 'manual';
  slot: string;
  status: 'running' | 'succeeded' | 'failed';
  started_at: number;
  finished_at: number | null;
  window_since: number;
  window_until: number;
  pages: number;
  found: number;
  recovered: number;
  duplicates: number;
  failed: number;
  error: string | null;
}

export interface ReconcileRunTables {
  gw_reconcile_runs: GwReconcileRunsTable;
}

export interface ReconcileCounts {
  pages: number;
  /** Orders and refunds the vendor listed in the window. */
  found: number;
  /** Envelopes the ledger had not seen: earned or reversed now. */
  recovered: number;
  /** Envelopes the ledger already held (the webhook delivered them). */
  duplicates: number;
  /** Orders that could not be mapped and envelopes the pipeline refused. */
  failed: number;
}

export interface ReconcileRun extends ReconcileCounts {
  id: string;
  vendor: string;
  connectionId: string;
  trigger: 'schedule' | 'manual';
  slot: string;
  status: 'running' | 'succeeded' | 'failed';
  startedAt: Date;
  finishedAt: Date | null;
  since: Date;
  until: Date;
  error: string | null;
}

const toRun = (row: Selectable<GwReconcileRunsTable>): ReconcileRun => ({
  id: row.id,
  vendor: row.vendor,
  connectionId: row.connection_id,
  trigger: row.trigger,
  slot: row.slot,
  status: row.status,
  startedAt: new Date(Number(row.started_at)),
  finishedAt: row.finished_at === null ? null : new Date(Number(row.finished_at)),
  since: new Date(Number(row.window_since)),
  until: new Date(Number(row.window_until)),
  pages: Number(row.pages),
  found: Number(row.found),
  recovered: Number(row.recovered),
  duplicates: Number(row.duplicates),
  failed: Number(row.failed),
  error: row.error,
});

export type ReconcileRunStore = Awaited<ReturnType<typeof createReconcileRunStore>>;

/** A connection's checkpoint: the latest window end of its succeeded runs (one seek of the checkpoint index, migration 0011). */
export function checkpointQuery(db: Kysely<ReconcileRunTables>, connectionId: string) {
  return db
    .selectFrom('gw_reconcile_runs')
    .select((eb) => eb.fn.max('window_until').as('until'))
    .where('connection_id', '=', connectionId)
    .where('status', '=', 'succeeded');
}

/**
 * The runs the pruning deletes: finished, started before `before`, and not their connection's
 * checkpoint. The succeeded run with the latest window end stays however old (ties too), or the
 * connection's next run would reconcile again from the connection's creation.
 */
export function prunableRunsQuery(db: Kysely<ReconcileRunTables>, before: Date) {
  return finishedRunsBefore(db, 'gw_reconcile_runs', before, (eb) =>
    eb.or([
      eb('r.status', '=', 'failed'),
      eb.exists(
        eb
          .selectFrom('gw_reconcile_runs as later')
          .select(sql.lit(1).as('one'))
          .whereRef('later.connection_id', '=', 'r.connection_id')
          .where('later.status', '=', 'succeeded')
          .whereRef('later.window_until', '>', 'r.window_until'),
      ),
    ]),
  );
}

/** Runs newest first (the time index, or a connection's, migrations 0011 and 0004). */
export const runsQuery = (db: Kysely<ReconcileRunTables>, filter: RunListFilter) => newestRunsQuery(db, 'gw_reconcile_runs', filter);

/**
 * Reconciliation runs and checkpoints, on either dialect. Claiming inserts the run's row:
 * UNIQUE(connection_id, slot) lets exactly one process take a schedule tick.
 */
export async function createReconcileRunStore(options: {
  database: SqlDatabase<any>;
  clock?: () => Date;
  /** Where the pruning's deletes run (see StatementRunner); the store's connection when absent. */
  deletes?: StatementRunner | undefined;
}) {
  const db = options.database.db as Kysely<ReconcileRunTables>;
  const now = options.clock ?? (() => new Date());
  return {
    /** Where the next window starts: the end of the latest succeeded run's window, or null. */
    async checkpoint(connectionId: string): Promise<Date | null> {
      const row = await checkpointQuery(db, connectionId).executeTakeFirst();
      return row?.until == null ? null : new Date(Number(row.until));
    },
    /** The run's row, or null when another process took this slot. A `running` row of the connection older than an hour (its process died) is marked failed first. */
    async claim(input: {
      vendor: string;
      connectionId: string;
      trigger: 'schedule' | 'manual';
      slot?: string;
      since: Date;
      until: Date;
    }): Promise<ReconcileRun | null> {
      const id = randomUUID();
      const row: GwReconcileRunsTable = {
        id,
        vendor: input.vendor,
        connection_id: input.connectionId,
        trigger: input.trigger,
        slot: input.slot ?? `manual:${id}`,
        status: 'running',
        started_at: now().getTime(),
        finished_at: null,
        window_since: input.since.getTime(),
        window_until: input.until.getTime(),
        pages: 0,
        found: 0,
        recovered: 0,
        duplicates: 0,
        failed: 0,
        error: null,
      };
      await db
        .updateTable('gw_reconcile_runs')
        .set({
          status: 'failed',
          finished_at: row.started_at,
          error: 'abandoned: the process running it stopped (no end recorded within an hour)',
        })
        .where('connection_id', '=', input.connectionId)
        .where('status', '=', 'running')
        .where('started_at', '<', row.started_at - ABANDONED_AFTER_MS)
        .execute();
      try {
        await db.insertInto('gw_reconcile_runs').values(row).execute();
      } catch (error) {
        if (isUniqueViolation(error)) return null;
        throw error;
      }
      return toRun(row);
    },
    async finish(id: string, outcome: ReconcileCounts & { status: 'succeeded' | 'failed'; error?: string | null }): Promise<ReconcileRun> {
      await db
        .updateTable('gw_reconcile_runs')
        .set({
          status: outcome.status,
          finished_at: now().getTime(),
          pages: outcome.pages,
          found: outcome.found,
          recovered: outcome.recovered,
          duplicates: outcome.duplicates,
          failed: outcome.failed,
          error: outcome.error ?? null,
        })
        .where('id', '=', id)
        .execute();
      return toRun(await db.selectFrom('gw_reconcile_runs').selectAll().where('id', '=', id).executeTakeFirstOrThrow());
    },
    /** Newest first. */
    async list(filter: RunListFilter = {}): Promise<ReconcileRun[]> {
      return (await runsQuery(db, filter).$castTo<Selectable<GwReconcileRunsTable>>().execute()).map(toRun);
    },
    /** Delete the finished runs started before `before` (GATEWAY_RUNS_DAYS), but never a connection's checkpoint (prunableRunsQuery). */
    prune: (before: Date, signal?: AbortSignal): Promise<number> =>
      deleteRuns(db, 'gw_reconcile_runs', prunableRunsQuery(db, before), { signal, execute: options.deletes }),
  };
}
