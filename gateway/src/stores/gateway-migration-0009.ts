import { sql, type Kysely, type Migration } from 'kysely';

/**
 * The journal's index of connections, appended to instead of written at one place per connection.
 * Migration 0005's index of (connection_id, received_at) kept each connection's entries together:
 * with many connections sending at once, every batch the writer committed dirtied one index page
 * per connection in it (and wrote each page to the WAL), where the other indexes dirty one page
 * per region. `bench/journal.ts`, 200,000 entries, 2 MiB page cache: 9.3 µs of the writer per
 * entry with one connection, 17.1 µs spread over 300 connections and 19.6 over 1,000
 * (docs/benchmarks.md).
 *
 * Now each entry with a connection also gets its connection's region (`connection_region`:
 * journal's `idRegion` of the id) and the index is (region, received_at, connection_id), as
 * migration 0008 did for transaction and request ids: within a region entries arrive in time
 * order, so every insert lands at the end of one of 16 runs. A connection's entries, newest first,
 * are its region's run read backwards, its id compared in the index; the pruning's count per
 * connection reads the index alone.
 *
 * Entries written before this migration keep no region: giving them one would rewrite every row
 * of the journal at boot (measured: 20 s per 1,000,000 entries on SQLite, 35 s on PostgreSQL,
 * where each rewritten row also enters every index again). They stay findable through a partial
 * index of their connection (`where connection_region is null`: built once here, never entered by
 * later rows, emptied by pruning), which the journal reads beside the new one.
 */
export const deliveriesConnectionRegionMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('gw_deliveries').addColumn('connection_region', 'integer').execute();
    await db.schema.dropIndex('gw_deliveries_connection_idx').execute();
    await db.schema
      .createIndex('gw_deliveries_connection_region_idx')
      .on('gw_deliveries')
      .columns(['connection_region', 'received_at', 'connection_id'])
      .where(sql.ref('connection_region'), 'is not', null)
      .execute();
    await db.schema
      .createIndex('gw_deliveries_connection_unregioned_idx')
      .on('gw_deliveries')
      .columns(['connection_id', 'received_at'])
      .where(sql.ref('connection_region'), 'is', null)
      .where(sql.ref('connection_id'), 'is not', null)
      .execute();
  },
};
