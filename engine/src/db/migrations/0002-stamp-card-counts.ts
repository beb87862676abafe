import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Completed stamp cards are counted on the card instead of being one reward_instances row each
 * (a sale with a huge quantity built millions of rows in one transaction). A member holds
 * `cards_completed - cards_redeemed` redeemable cards of a reward: earn adds to the first, redeem
 * adds to the second (conditionally, so two redemptions never take the same card), a refund of
 * the redeeming sale takes one back. Existing rows are folded in: each stamp-card instance counts
 * as completed, each used one as redeemed; redemptions that pointed at one lose the pointer (the
 * reversal finds the card by the reward), and the instance rows go.
 */
export const stampCardCounts: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .alterTable('stamp_cards')
      .addColumn('cards_completed', 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .alterTable('stamp_cards')
      .addColumn('cards_redeemed', 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();
    const cardRows = (status: string | null) => sql`(
      select count(*) from reward_instances ri
      where ri.member_id = stamp_cards.member_id and ri.reward_id = stamp_cards.reward_id and ri.origin = 'stamp_card'
      ${status === null ? sql`` : sql`and ri.status = ${status}`})`;
    await db
      .updateTable('stamp_cards')
      .set({ cards_completed: cardRows(null), cards_redeemed: cardRows('used') })
      .execute();
    await db
      .updateTable('redemptions')
      .set({ instance_id: null })
      .where('instance_id', 'in', db.selectFrom('reward_instances').select('id').where('origin', '=', 'stamp_card'))
      .execute();
    await db.deleteFrom('reward_instances').where('origin', '=', 'stamp_card').execute();
  },
};
