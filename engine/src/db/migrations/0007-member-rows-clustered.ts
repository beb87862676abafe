import { SqliteAdapter, sql, type Kysely, type Migration } from 'kysely';

/**
 * Every earn reads and writes its member's wallet and stamp card, found by the member's id. On
 * SQLite a table whose primary key is not an integer is two B-trees, the key's index and the rows
 * by rowid: an earn for a member whose pages are not in the cache (sales spread over a million
 * members) read two random pages for each, where one does. The two tables are rebuilt WITHOUT
 * ROWID (the rows stored in their primary key's B-tree), in one transaction; nothing references
 * them, and their columns, keys and references are as before. Measured: docs/benchmarks.md,
 * "Cost at ledger size". PostgreSQL stores rows apart from every index by design: nothing to do
 * there.
 */
export const memberRowsClustered: Migration = {
  async up(db: Kysely<any>) {
    if (!(db.getExecutor().adapter instanceof SqliteAdapter)) return;
    await db.transaction().execute(async (trx) => {
      await rebuild(
        trx,
        'wallets',
        `"member_id" text primary key references "members" ("id"), "balance" bigint not null, "lifetime_points" bigint not null`,
        ['member_id', 'balance', 'lifetime_points'],
      );
      await rebuild(
        trx,
        'stamp_cards',
        `"member_id" text not null references "members" ("id"), "reward_id" text not null references "rewards" ("id"), ` +
          `"stamps_total" bigint not null, "cards_completed" bigint default 0 not null, "cards_redeemed" bigint default 0 not null, ` +
          `constraint "stamp_cards_pk" primary key ("member_id", "reward_id")`,
        ['member_id', 'reward_id', 'stamps_total', 'cards_completed', 'cards_redeemed'],
      );
    });
  },
};

/** Create `table` anew WITHOUT ROWID with `definition`, copy its rows in key order, replace it. */
async function rebuild(db: Kysely<any>, table: string, definition: string, columns: string[]): Promise<void> {
  const { rows } = await sql<{ sql: string }>`select sql from sqlite_master where type = 'table' and name = ${table}`.execute(db);
  if (/without\s+rowid\s*$/i.test(rows[0]?.sql ?? '')) return;
  const list = sql.raw(columns.map((c) => `"${c}"`).join(', '));
  await sql.raw(`create table "${table}_new" (${definition}) without rowid`).execute(db);
  await sql`insert into ${sql.table(`${table}_new`)} (${list}) select ${list} from ${sql.table(table)}`.execute(db);
  await sql`drop table ${sql.table(table)}`.execute(db);
  await sql`alter table ${sql.table(`${table}_new`)} rename to ${sql.table(table)}`.execute(db);
}
