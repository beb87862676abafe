import { sql, type Kysely, type Migration } from 'kysely';

/**
 * The journal's lookup by transaction id through an index whose new entries are appended, not
 * placed at random. Migration 0007's index of `transaction_key` alone put each entry at the page of
 * its id's key, and vendors' ids are random: once the journal outgrew the writer's page cache,
 * nearly every entry read and dirtied a page of its own. `bench/journal.ts`, random ids, 2 MiB
 * cache: 10.5 µs of the writer per entry at 100,000 entries, 29.7 µs on average up to 1,000,000
 * (10.1 without that index), and growing with the journal (docs/benchmarks.md).
 *
 * Now an entry's id also gives it one of 64 regions (`transaction_region`, journal's
 * `transactionRegion`), and the index is (region, received_at, key): within a region entries
 * arrive in time order, so every insert lands at the end of one of 64 runs, 64 pages in use
 * whatever the journal's size. A lookup reads one region's run (1/64 of the entries with a
 * transaction, 20 bytes each), compares the key in the index and reads only the rows it matches.
 *
 * Entries written before this migration have no region: they stay findable through a partial
 * index of their keys (built once here; later entries never enter it, and pruning empties it).
 */
export const deliveriesTransactionRegionMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('gw_deliveries').addColumn('transaction_region', 'integer').execute();
    await db.schema.dropIndex('gw_deliveries_transaction_key_idx').execute();
    await db.schema
      .createIndex('gw_deliveries_transaction_region_idx')
      .on('gw_deliveries')
      .columns(['transaction_region', 'received_at', 'transaction_key'])
      .where(sql.ref('transaction_region'), 'is not', null)
      .execute();
    await db.schema
      .createIndex('gw_deliveries_transaction_keyed_idx')
      .on('gw_deliveries')
      .column('transaction_key')
      .where(sql.ref('transaction_region'), 'is', null)
      .where(sql.ref('transaction_key'), 'is not', null)
      .execute();
  },
};
