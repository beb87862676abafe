import type { Kysely, Migration } from 'kysely';

/**
 * Refunds are looked up by their sale's key too: every new sale asks whether refunds of it arrived
 * first (engine/earlier-refunds.ts), so that lookup must be one index probe, not a scan.
 */
export const refundsSaleIndex: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createIndex('refunds_source_tx_ix')
      .on('refunds')
      .columns(['source_vendor', 'source_store_id', 'transaction_id'])
      .execute();
  },
};
