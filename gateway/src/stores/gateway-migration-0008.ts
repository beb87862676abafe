import { sql, type Kysely, type Migration } from 'kysely';

/**
 * The journal's lookups by transaction id and by request id through indexes whose new entries are
 * appended, not placed at random. Migration 0007's index of `transaction_key` alone put each entry
 * at the page of its id's key, and so did the index of `request_id` for the random
 * `X-Request-ID`s vendors send (the gateway's own ids sort by time): once the journal outgrew the
 * writer's page cache, nearly every entry read and dirtied a page of its own per such index.
 * `bench/journal.ts`, random transaction ids, 2 MiB cache: 10.5 µs of the writer per entry at
 * 100,000 entries, 29.7 µs on average up to 1,000,000, and growing with the journal; with random
 * request ids too, 38.1 µs (docs/benchmarks.md).
 *
 * Now each id also gives its entry one of 16 regions (`transaction_region`, `request_region`:
 * journal's `idRegion`), and each index is (region, received_at, key): within a region entries
 * arrive in time order, so every insert lands at the end of one of 16 runs, 16 pages in use per
 * index whatever the journal's size: 11.6–11.9 µs per entry up to 2,000,000 entries, random
 * request ids included. A lookup reads one region's run (1/16 of the entries, ~20 bytes each),
 * compares the key in the index and reads only the rows it matches: 4.4 ms at 1,000,000 entries.
 *
 * Entries written before this migration have no regions: they stay findable through partial
 * indexes of their keys and request ids (built once here; later entries never enter them, and
 * pruning empties them).
 */
export const deliveriesRegionsMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('gw_deliveries').addColumn('transaction_region', 'integer').execute();
    await db.schema.alterTable('gw_deliveries').addColumn('request_region', 'integer').execute();
    await db.schema.alterTable('gw_deliveries').addColumn('request_key', 'integer').execute();
    await db.schema.dropIndex('gw_deliveries_transaction_key_idx').execute();
    await db.schema.dropIndex('gw_deliveries_request_idx').execute();
    await db.schema
      .createIndex('gw_deliveries_transaction_region_idx')
      .on('gw_deliveries')
      .columns(['transaction_region', 'received_at', 'transaction_key'])
      .where(sql.ref('transaction_region'), 'is not', null)
      .execute();
    await db.schema
      .createIndex('gw_deliveries_request_region_idx')
      .on('gw_deliveries')
      .columns(['request_region', 'received_at', 'request_key'])
      .where(sql.ref('request_region'), 'is not', null)
      .execute();
    await db.schema
      .createIndex('gw_deliveries_transaction_keyed_idx')
      .on('gw_deliveries')
      .column('transaction_key')
      .where(sql.ref('transaction_region'), 'is', null)
      .where(sql.ref('transaction_key'), 'is not', null)
      .execute();
    await db.schema
      .createIndex('gw_deliveries_request_unregioned_idx')
      .on('gw_deliveries')
      .column('request_id')
      .where(sql.ref('request_region'), 'is', null)
      .execute();
  },
};
