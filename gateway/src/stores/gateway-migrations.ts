import type { MigrationSet } from '@loyalty-gateway/storage';
import { sql, type Kysely, type Migration } from 'kysely';
import { operatorTablesMigration } from './gateway-migration-0002.js';
import { vendorNoteCountsMigration } from './gateway-migration-0003.js';
import { reconcileRunsMigration } from './gateway-migration-0004.js';
import { deliveriesMigration } from './gateway-migration-0005.js';
import { consoleSessionsMigration } from './gateway-migration-0006.js';
import { deliveriesTransactionKeyMigration } from './gateway-migration-0007.js';
import { deliveriesRegionsMigration } from './gateway-migration-0008.js';
import { deliveriesConnectionRegionMigration } from './gateway-migration-0009.js';
import { deliveriesReplayIndexMigration } from './gateway-migration-0010.js';
import { reconcileRunsIndexesMigration } from './gateway-migration-0011.js';
import { deliveriesIdOrderMigration } from './gateway-migration-0012.js';
import { deliveriesBoundsMigration } from './gateway-migration-0013.js';
import { deliveriesOutcomesMigration } from './gateway-migration-0014.js';
import { deliveriesTraceIdMigration } from './gateway-migration-0015.js';
import { deliveriesGeneratedRequestIdsMigration } from './gateway-migration-0016.js';

const init: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('gw_vendors')
      .addColumn('slug', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('tier', 'text', (c) => c.notNull().check(sql`tier in ('generic', 'featured')`))
      .addColumn('settings_sealed', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('gw_connections')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('vendor', 'text', (c) => c.notNull().references('gw_vendors.slug'))
      .addColumn('store_id', 'text', (c) => c.notNull())
      .addColumn('merchant_id', 'text', (c) => c.notNull())
      .addColumn('outlet_id', 'text', (c) => c.notNull())
      .addColumn('active', 'integer', (c) =>
        c
          .notNull()
          .defaultTo(1)
          .check(sql`active in (0, 1)`),
      )
      .addColumn('credentials_sealed', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      // The hot-path lookup; also the rule "one connection per vendor and store, exactly as entered".
      .addUniqueConstraint('gw_connections_vendor_store_uq', ['vendor', 'store_id'])
      .execute();
    await db.schema.createIndex('gw_connections_merchant_idx').on('gw_connections').column('merchant_id').execute();

    await db.schema
      .createTable('gw_connection_secrets')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('connection_id', 'text', (c) => c.notNull().references('gw_connections.id').onDelete('cascade'))
      .addColumn('secret_sealed', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint')
      .execute();
    await db.schema.createIndex('gw_connection_secrets_connection_idx').on('gw_connection_secrets').column('connection_id').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('gw_connection_secrets').execute();
    await db.schema.dropTable('gw_connections').execute();
    await db.schema.dropTable('gw_vendors').execute();
  },
};

/**
 * The gateway's schema, as numbered migrations run on SQLite and PostgreSQL alike by storage's
 * `migrate(db, gatewayMigrations)`, once at boot (openDatabases); the stores assume it ran.
 * Recorded in `gw_migrations`, apart from the engine's. Never edit a released migration; add the
 * next number.
 */
export const gatewayMigrations: MigrationSet = {
  table: 'gw_migrations',
  migrations: {
    '0001_gateway_init': init,
    '0002_operator_tables': operatorTablesMigration,
    '0003_vendor_note_counts': vendorNoteCountsMigration,
    '0004_reconcile_runs': reconcileRunsMigration,
    '0005_deliveries': deliveriesMigration,
    '0006_console_sessions': consoleSessionsMigration,
    '0007_deliveries_transaction_key': deliveriesTransactionKeyMigration,
    '0008_deliveries_regions': deliveriesRegionsMigration,
    '0009_deliveries_connection_region': deliveriesConnectionRegionMigration,
    '0010_deliveries_replay_index': deliveriesReplayIndexMigration,
    '0011_reconcile_runs_indexes': reconcileRunsIndexesMigration,
    '0012_deliveries_id_order': deliveriesIdOrderMigration,
    '0013_deliveries_bounds': deliveriesBoundsMigration,
    '0014_deliveries_outcomes': deliveriesOutcomesMigration,
    '0015_deliveries_trace_id': deliveriesTraceIdMigration,
    '0016_deliveries_generated_request_ids': deliveriesGeneratedRequestIdsMigration,
  },
};
