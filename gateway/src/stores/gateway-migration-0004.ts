import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Order reconciliation runs: one row per claimed run. UNIQUE(connection_id, slot) makes a schedule
 * tick run once across every gateway process; the checkpoint of a connection is the `window_until`
 * of its latest succeeded run.
 */
export const reconcileRunsMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('gw_reconcile_runs')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('vendor', 'text', (c) => c.notNull())
      .addColumn('connection_id', 'text', (c) => c.notNull())
      .addColumn('trigger', 'text', (c) => c.notNull().check(sql`trigger in ('schedule', 'manual')`))
      .addColumn('slot', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('running', 'succeeded', 'failed')`))
      .addColumn('started_at', 'bigint', (c) => c.notNull())
      .addColumn('finished_at', 'bigint')
      .addColumn('window_since', 'bigint', (c) => c.notNull())
      .addColumn('window_until', 'bigint', (c) => c.notNull())
      .addColumn('pages', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('found', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('recovered', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('duplicates', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('failed', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('error', 'text')
      .addUniqueConstraint('gw_reconcile_runs_slot_uq', ['connection_id', 'slot'])
      .execute();
    await db.schema
      .createIndex('gw_reconcile_runs_connection_idx')
      .on('gw_reconcile_runs')
      .columns(['connection_id', 'started_at'])
      .execute();
  },
};
