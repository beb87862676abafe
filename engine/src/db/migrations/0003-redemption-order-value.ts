import type { Kysely, Migration } from 'kysely';

/**
 * A redemption keeps the order value it was sent with (minor units; null when sent without one),
 * so that a retry with another orderValue is recognised as a different request (409), not replayed.
 * Redemptions recorded before this migration count as sent without one.
 */
export const redemptionOrderValue: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('redemptions').addColumn('order_value_minor', 'bigint').execute();
  },
};
