import type { Kysely, Migration } from 'kysely';

/**
 * Vendor notes count their repeats: a signed delivery for a store with no connection yet is kept
 * as one note per store (kind `unknown_store`) with how often and since when it came, so the
 * operator sees which merchant to connect.
 */
export const vendorNoteCountsMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .alterTable('gw_vendor_notes')
      .addColumn('count', 'integer', (c) => c.notNull().defaultTo(1))
      .execute();
    await db.schema.alterTable('gw_vendor_notes').addColumn('first_seen_at', 'bigint').execute();
  },
};
