import type { Kysely, Migration } from 'kysely';

/**
 * Reversals can be given back (withdraw-refunds.ts): a refund the vendor deleted or voided, a
 * cancellation undone. `occurred_at` is the vendor's time of the reversal (ISO 8601, UTC), compared
 * with the time of the vendor state that no longer lists it; `withdrawn_at` is when it was given
 * back (its status is then WITHDRAWN). Refunds recorded before this migration have no
 * `occurred_at`: their `created_at` stands in. Both columns are added empty: no row is rewritten.
 * A reconciliation pull asks which orders of a store had reversals recorded lately
 * (reversed-orders.ts): one index range on (vendor, store, created_at).
 */
export const refundWithdrawal: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('refunds').addColumn('occurred_at', 'text').execute();
    await db.schema.alterTable('refunds').addColumn('withdrawn_at', 'text').execute();
    await db.schema
      .createIndex('refunds_source_created_ix')
      .on('refunds')
      .columns(['source_vendor', 'source_store_id', 'created_at'])
      .execute();
  },
};
