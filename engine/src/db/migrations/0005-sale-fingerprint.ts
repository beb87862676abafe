import type { Kysely, Migration } from 'kysely';

/**
 * The fingerprint of each sale's details (core's saleFingerprint), so a transaction id arriving
 * again with another sale is told from a retry. Sales recorded before this migration have none:
 * a repeat of one of them is a plain duplicate, as before.
 */
export const saleFingerprint: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('sales').addColumn('fingerprint', 'text').execute();
  },
};
