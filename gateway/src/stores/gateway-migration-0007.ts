import { sql, type Kysely, type Migration } from 'kysely';

/**
 * The journal's lookup by transaction id through a 32-bit key of the id (`transaction_key`,
 * journal's `transactionKey`) instead of the id's text. Many vendors' transaction ids are random
 * (UUIDs, base62), so each such entry lands at a random place of that index; in SQLite a random insert
 * into a full page splits it, and an index of 36-character keys (~95 a page) split about every
 * other entry: ~10 µs of the journal writer's ~19 per entry at 200,000 entries. A 4-byte key packs
 * ~3× more a page. The lookup compares the key, then the id itself (keys may collide).
 *
 * Entries written before this migration have no key: they stay findable through a partial index
 * of their ids (built once here, sorted; later entries never enter it, and pruning empties it).
 */
export const deliveriesTransactionKeyMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('gw_deliveries').addColumn('transaction_key', 'integer').execute();
    await db.schema.dropIndex('gw_deliveries_transaction_idx').execute();
    await db.schema.createIndex('gw_deliveries_transaction_key_idx').on('gw_deliveries').column('transaction_key').execute();
    await db.schema
      .createIndex('gw_deliveries_transaction_unkeyed_idx')
      .on('gw_deliveries')
      .column('transaction_id')
      .where(sql.ref('transaction_key'), 'is', null)
      .where(sql.ref('transaction_id'), 'is not', null)
      .execute();
  },
};
