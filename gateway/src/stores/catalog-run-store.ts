import { randomUUID } from 'node:crypto';
import { isUniqueViolation, type SqlDatabase } from '@loyalty-gateway/storage';
import type { Kysely, Selectable } from 'kysely';
import type { CatalogClaim, CatalogRun, CatalogRunCounts, CatalogRunStore } from './gateway-store-types.js';
import type { GwCatalogRunsTable, OperatorTables } from './operator-tables.js';
import { ABANDONED_AFTER_MS, deleteRuns, finishedRunsBefore, newestRunsQuery, type StatementRunner } from './run-history.js';

export interface CatalogRunStoreOptions {
  /** The gateway's database (opened by the caller, never closed here). */
  database: SqlDatabase<any>;
  clock?: () => Date;
  /** A `running` row with no heartbeat for this long was abandoned (its process died) and may be taken over. Default ABANDONED_AFTER_MS (1 h). */
  abandonedAfterMs?: number;
  /** Where the pruning's deletes run (see StatementRunner); the store's connection when absent. */
  deletes?: StatementRunner | undefined;
}

const toRun = (row: Selectable<GwCatalogRunsTable>): CatalogRun => ({
  id: row.id,
  vendor: row.vendor,
  connectionId: row.connection_id,
  trigger: row.trigger,
  slot: row.slot,
  status: row.status,
  startedAt: new Date(Number(row.started_at)),
  finishedAt: row.finished_at === null ? null : new Date(Number(row.finished_at)),
  pages: Number(row.pages),
  items: Number(row.items),
  created: Number(row.created),
  updated: Number(row.updated),
  deactivated: Number(row.deactivated),
  attempts: Number(row.attempts),
  error: row.error,
});

const countColumns = (counts: Partial<CatalogRunCounts>) => {
  const out: Partial<Pick<GwCatalogRunsTable, keyof CatalogRunCounts>> = {};
  for (const key of ['pages', 'items', 'created', 'updated', 'deactivated', 'attempts'] as const) {
    if (counts[key] !== undefined) out[key] = counts[key];
  }
  return out;
};

/**
 * Catalog pull runs. Claiming a run inserts its row: UNIQUE(vendor, connection_id, slot) makes a
 * schedule tick run once across every gateway process, and a partial unique index allows one
 * `running` row per connection (a manual trigger during a run is refused). Both hold on SQLite
 * and PostgreSQL alike; no cache takes part in the decision.
 */
export async function createCatalogRunStore(options: CatalogRunStoreOptions): Promise<CatalogRunStore> {
  const db = options.database.db as Kysely<OperatorTables>;
  const now = options.clock ?? (() => new Date());
  const abandonedAfterMs = options.abandonedAfterMs ?? ABANDONED_AFTER_MS;

  const get = async (id: string) => {
    const row = await db.selectFrom('gw_catalog_runs').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toRun(row) : null;
  };

  /** Mark an abandoned `running` row failed; true when this caller did it (or someone else already had). */
  async function retireIfStale(row: Selectable<GwCatalogRunsTable>, at: number): Promise<boolean> {
    if (Number(row.heartbeat_at) > at - abandonedAfterMs) return false;
    await db
      .updateTable('gw_catalog_runs')
      .set({ status: 'failed', finished_at: at, error: `abandoned: no progress since ${new Date(Number(row.heartbeat_at)).toISOString()}` })
      .where('id', '=', row.id)
      .where('status', '=', 'running')
      .where('heartbeat_at', '=', row.heartbeat_at)
      .execute();
    return true;
  }

  async function claim(input: Parameters<CatalogRunStore['claim']>[0], takeOver = true): Promise<CatalogClaim> {
    const id = randomUUID();
    const slot = input.slot ?? `manual:${id}`;
    const at = now().getTime();
    const row: GwCatalogRunsTable = {
      id,
      vendor: input.vendor,
      connection_id: input.connectionId,
      trigger: input.trigger,
      slot,
      status: 'running',
      started_at: at,
      heartbeat_at: at,
      finished_at: null,
      pages: 0,
      items: 0,
      created: 0,
      updated: 0,
      deactivated: 0,
      attempts: 0,
      error: null,
    };
    try {
      await db.insertInto('gw_catalog_runs').values(row).execute();
      return { claimed: true, run: toRun(row) };
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
    const sameSlot = await db
      .selectFrom('gw_catalog_runs')
      .selectAll()
      .where('vendor', '=', input.vendor)
      .where('connection_id', '=', input.connectionId)
      .where('slot', '=', slot)
      .executeTakeFirst();
    if (sameSlot) return { claimed: false, reason: 'slot_taken', existing: toRun(sameSlot) };
    const running = await db
      .selectFrom('gw_catalog_runs')
      .selectAll()
      .where('vendor', '=', input.vendor)
      .where('connection_id', '=', input.connectionId)
      .where('status', '=', 'running')
      .executeTakeFirst();
    if (running && takeOver && (await retireIfStale(running, at))) return claim(input, false);
    return { claimed: false, reason: 'in_progress', existing: running ? toRun(running) : null };
  }

  return {
    claim: (input) => claim(input),
    async progress(runId, counts) {
      await db
        .updateTable('gw_catalog_runs')
        .set({ ...countColumns(counts), heartbeat_at: now().getTime() })
        .where('id', '=', runId)
        .execute();
    },
    async finish(runId, outcome) {
      const at = now().getTime();
      await db
        .updateTable('gw_catalog_runs')
        .set({ ...countColumns(outcome), status: outcome.status, error: outcome.error ?? null, finished_at: at, heartbeat_at: at })
        .where('id', '=', runId)
        .where('status', '=', 'running') // a row retired as abandoned keeps its verdict
        .execute();
      const run = await get(runId);
      if (!run) throw new Error(`catalog run ${runId} vanished`);
      return run;
    },
    get,
    async list(filter = {}) {
      return (await newestRunsQuery(db, 'gw_catalog_runs', filter).$castTo<Selectable<GwCatalogRunsTable>>().execute()).map(toRun);
    },
    prune: (before, signal) =>
      deleteRuns(db, 'gw_catalog_runs', finishedRunsBefore(db, 'gw_catalog_runs', before), { signal, execute: options.deletes }),
  };
}
