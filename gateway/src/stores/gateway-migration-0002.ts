import { sql, type Kysely, type Migration } from 'kysely';

/**
 * 0002: vendor notes (webhook handshakes an operator must see) and catalog pull runs.
 * `gw_catalog_runs_slot_uq` is the cross-process lock: claiming a run is inserting its row, so one
 * schedule tick runs once per connection however many gateway processes fire it.
 * `gw_catalog_runs_running_uq` (partial) allows at most one `running` row per connection.
 */
export const operatorTablesMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('gw_vendor_notes')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('vendor', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('value', 'text', (c) => c.notNull())
      .addColumn('note', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('gw_vendor_notes_vendor_idx').on('gw_vendor_notes').columns(['vendor', 'created_at']).execute();

    await db.schema
      .createTable('gw_catalog_runs')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('vendor', 'text', (c) => c.notNull())
      .addColumn('connection_id', 'text', (c) => c.notNull())
      .addColumn('trigger', 'text', (c) => c.notNull().check(sql`trigger in ('schedule', 'manual')`))
      .addColumn('slot', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('running', 'succeeded', 'failed')`))
      .addColumn('started_at', 'bigint', (c) => c.notNull())
      .addColumn('heartbeat_at', 'bigint', (c) => c.notNull())
      .addColumn('finished_at', 'bigint')
      .addColumn('pages', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('items', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('updated', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('deactivated', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('error', 'text')
      .addUniqueConstraint('gw_catalog_runs_slot_uq', ['vendor', 'connection_id', 'slot'])
      .execute();
    await sql`create unique index gw_catalog_runs_running_uq on gw_catalog_runs (vendor, connection_id) where status = 'running'`.execute(
      db,
    );
    await db.schema.createIndex('gw_catalog_runs_started_idx').on('gw_catalog_runs').column('started_at').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('gw_catalog_runs').execute();
    await db.schema.dropTable('gw_vendor_notes').execute();
  },
};
