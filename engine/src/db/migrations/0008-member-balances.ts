import { SqliteAdapter, sql, type Kysely, type Migration } from 'kysely';

/**
 * A member's points wallet and stamp cards move into one table, `balances`, keyed (member_id,
 * reward_id): the wallet under reward_id '' (balance, lifetime points), one row per stamp reward
 * under the reward's id (stamps, cards completed and redeemed). An earn reads and writes its
 * member's wallet and card; in two tables those were two random leaves, where the member's rows of
 * one table keyed by the member share a leaf. On SQLite the table is WITHOUT ROWID (the rows in
 * the key's B-tree, as migration 0007 made the two tables), so a sale spread over a large ledger
 * reads and writes one leaf for both instead of two. Measured: docs/benchmarks.md, "Cost at ledger
 * size".
 *
 * The card rows' reward_id cannot reference `rewards` (the wallet's '' names none, and key columns
 * cannot be null); rewards are never deleted, and the engine writes a card only for a reward of the
 * merchant's catalog. Two checks keep the kinds apart, so a statement that forgot which row it
 * meant fails instead of moving points on a card or stamps on a wallet.
 */
export const memberBalances: Migration = {
  async up(db: Kysely<any>) {
    const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
    const move = async (trx: Kysely<any>) => {
      await sql
        .raw(
          `create table "balances" (` +
            `"member_id" text not null references "members" ("id"), "reward_id" text not null, ` +
            `"balance" bigint default 0 not null, "lifetime_points" bigint default 0 not null, ` +
            `"stamps_total" bigint default 0 not null, "cards_completed" bigint default 0 not null, "cards_redeemed" bigint default 0 not null, ` +
            `constraint "balances_pk" primary key ("member_id", "reward_id"), ` +
            `constraint "balances_wallet_ck" check ("reward_id" <> '' or ("stamps_total" = 0 and "cards_completed" = 0 and "cards_redeemed" = 0)), ` +
            `constraint "balances_card_ck" check ("reward_id" = '' or ("balance" = 0 and "lifetime_points" = 0))` +
            `)${sqlite ? ' without rowid' : ''}`,
        )
        .execute(trx);
      // One pass over the two tables in key order: each member's wallet, then its cards.
      await sql`insert into balances (member_id, reward_id, balance, lifetime_points, stamps_total, cards_completed, cards_redeemed)
        select member_id, reward_id, balance, lifetime_points, stamps_total, cards_completed, cards_redeemed from (
          select member_id, '' as reward_id, balance, lifetime_points, 0 as stamps_total, 0 as cards_completed, 0 as cards_redeemed from wallets
          union all
          select member_id, reward_id, 0, 0, stamps_total, cards_completed, cards_redeemed from stamp_cards
        ) as rows order by member_id, reward_id`.execute(trx);
      await sql`drop table stamp_cards`.execute(trx);
      await sql`drop table wallets`.execute(trx);
    };
    // PostgreSQL runs the pending migrations in one transaction already; SQLite's DDL needs its own.
    if (sqlite) await db.transaction().execute(move);
    else await move(db);
  },
};
