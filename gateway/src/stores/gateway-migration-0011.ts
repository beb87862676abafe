import type { Kysely, Migration } from 'kysely';

/**
 * Reconciliation runs read by index, as their history grows (a run per active featured
 * connection every 15 minutes: 96 a day each, ~10 million a year over 300 stores, pruned after
 * GATEWAY_RUNS_DAYS since this migration):
 * - a connection's checkpoint (`max(window_until)` of its succeeded runs, read before every run)
 *   was found by reading all of the connection's runs through (connection_id, started_at) and
 *   each row of the table for its status: now one seek of (connection_id, status, window_until);
 * - the runs' list, newest first (admin, console), and the history's pruning by age read the
 *   whole table and sorted it: now the time index, as the catalog runs have had since 0002.
 */
export const reconcileRunsIndexesMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createIndex('gw_reconcile_runs_checkpoint_idx')
      .on('gw_reconcile_runs')
      .columns(['connection_id', 'status', 'window_until'])
      .execute();
    await db.schema.createIndex('gw_reconcile_runs_started_idx').on('gw_reconcile_runs').column('started_at').execute();
  },
};
