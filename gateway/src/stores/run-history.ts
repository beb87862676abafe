import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { CompiledQuery, Expression, ExpressionBuilder, Kysely, SqlBool } from 'kysely';

/**
 * Rows per delete statement. On SQLite a statement holds the event loop while it runs
 * (better-sqlite3 is synchronous), ~70–130 µs a run (each run's row leaves six B-trees, its
 * random id's among them): 200 hold it ~15–40 ms, 1,000 held it up to 122 ms (bench/run-history.ts).
 */
export const RUN_HISTORY_CHUNK = 200;

/**
 * Runs one compiled statement on another connection and tells how many rows it changed: where the
 * pruning's deletes run when not on the store's own connection. On SQLite the gateway passes the
 * delivery journal's writer thread (its own connection to gateway.sqlite), so that the deletes
 * never hold the event loop (better-sqlite3 is synchronous).
 */
export type StatementRunner = (query: CompiledQuery) => Promise<{ changes: number }>;

/** A run-history table: both have `id`, `status` (`running` · `succeeded` · `failed`) and `started_at`. */
type RunTable = 'gw_catalog_runs' | 'gw_reconcile_runs';

/**
 * A run still `running` with no sign of life for this long belongs to a process that died: it is
 * marked failed (abandoned), and its slot or window may be run again. A catalog run's sign of life
 * is its heartbeat (each page); a reconciliation run, which has none, is measured from its start.
 */
export const ABANDONED_AFTER_MS = 60 * 60 * 1000;

/** Most runs one list returns (the bound of the admin's RunsQuery `limit`). */
export const RUNS_LIST_MAX = 1_000;

/** Which runs a list returns: of one vendor and/or connection, `limit` of them (100 by default). */
export interface RunListFilter {
  vendor?: string | undefined;
  connectionId?: string | undefined;
  limit?: number | undefined;
}

/**
 * `table`'s runs newest first, `limit` of them (100 by default), of one vendor and/or connection:
 * read through the time index, or through the connection's (migrations 0002, 0004 and 0011).
 */
export function newestRunsQuery(db: Kysely<any>, table: RunTable, filter: RunListFilter) {
  let query = db
    .selectFrom(table)
    .selectAll()
    .orderBy('started_at', 'desc')
    .orderBy('id')
    .limit(Math.min(Math.max(1, filter.limit ?? 100), RUNS_LIST_MAX));
  if (filter.vendor !== undefined) query = query.where('vendor', '=', filter.vendor);
  if (filter.connectionId !== undefined) query = query.where('connection_id', '=', filter.connectionId);
  return query;
}

/**
 * The ids of `table`'s finished runs that started before `before` (read through its time index),
 * narrowed by `also` (over the run as `r`) when given. A `running` row is never among them: it
 * holds its connection's one-run-at-a-time key until a later claim retires it.
 */
export function finishedRunsBefore(
  db: Kysely<any>,
  table: RunTable,
  before: Date,
  also?: (eb: ExpressionBuilder<any, any>) => Expression<SqlBool>,
) {
  const ids = db.selectFrom(`${table} as r`).select('r.id').where('r.started_at', '<', before.getTime()).where('r.status', '<>', 'running');
  return also ? ids.where(also) : ids;
}

/**
 * Delete the runs `ids` selects, `chunk` at a time; how many were deleted. After each statement
 * it waits as long as the statement took, so that a large first pruning (a history kept from
 * before GATEWAY_RUNS_DAYS existed) never takes more than half of the time of the connection it
 * runs on (the event loop's, or with `execute` the writer thread's, whose journal batches wait
 * behind a statement). Once `signal` aborts (the process is stopping) it stops after the
 * statement under way.
 */
export async function deleteRuns(
  db: Kysely<any>,
  table: RunTable,
  ids: ReturnType<typeof finishedRunsBefore>,
  options: { chunk?: number; signal?: AbortSignal | undefined; execute?: StatementRunner | undefined } = {},
): Promise<number> {
  const chunk = options.chunk ?? RUN_HISTORY_CHUNK;
  const { execute } = options;
  let removed = 0;
  while (!options.signal?.aborted) {
    const started = performance.now();
    const statement = db.deleteFrom(table).where('id', 'in', ids.limit(chunk));
    const deleted = execute ? (await execute(statement.compile())).changes : Number((await statement.executeTakeFirst()).numDeletedRows);
    removed += deleted;
    if (deleted < chunk) break;
    await sleep(performance.now() - started, undefined, { signal: options.signal }).catch(() => undefined);
  }
  return removed;
}

export interface RunHistoryPruning {
  /** One pruning now (the hourly one's work); resolves with what it deleted, never rejects (a failure is logged). */
  prune(): Promise<{ catalog: number; reconcile: number } | null>;
  /** Stop the hourly pruning; one under way stops after its statement under way. */
  stop(): Promise<void>;
}

/**
 * The run history's retention: at start and then hourly, the catalog pulls' and the order
 * reconciliations' runs older than `days` are deleted (each connection's reconciliation
 * checkpoint stays). Every process may run it: the deletes are idempotent.
 */
export function startRunHistoryPruning(options: {
  catalog: { prune(before: Date, signal?: AbortSignal): Promise<number> };
  reconcile: { prune(before: Date, signal?: AbortSignal): Promise<number> };
  days: number;
  log: { info(object: object, message: string): void; warn(object: object, message: string): void };
  clock?: () => Date;
  everyMs?: number;
}): RunHistoryPruning {
  const now = options.clock ?? (() => new Date());
  const stopping = new AbortController();
  let running: Promise<{ catalog: number; reconcile: number } | null> = Promise.resolve(null);
  const prune = () => {
    running = running.then(async () => {
      const before = new Date(now().getTime() - options.days * 24 * 60 * 60 * 1000);
      try {
        const { signal } = stopping;
        const catalog = await options.catalog.prune(before, signal);
        const removed = { catalog, reconcile: signal.aborted ? 0 : await options.reconcile.prune(before, signal) };
        if (removed.catalog + removed.reconcile > 0) options.log.info({ ...removed, days: options.days }, 'run history pruned');
        return removed;
      } catch (error) {
        options.log.warn({ err: error }, 'run history pruning failed; retried in an hour');
        return null;
      }
    });
    return running;
  };
  const timer = setInterval(() => void prune(), options.everyMs ?? 60 * 60 * 1000);
  timer.unref();
  void prune();
  return {
    prune,
    async stop() {
      clearInterval(timer);
      stopping.abort();
      await running;
    },
  };
}
