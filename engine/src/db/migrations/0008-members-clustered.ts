import { SqliteAdapter, sql, type Kysely, type Migration } from 'kysely';

/**
 * An earn finds its member by identifier (`members_membership_uq`), reads the member's row, and
 * every ledger row it inserts has its `member_id` checked against `members`' primary key. On
 * SQLite `members` (a text primary key) was three B-trees — the identifier's index, the key's
 * index, the rows by rowid — so an earn for a member out of the cache (sales spread over a
 * million members) read three random leaves. Rebuilt WITHOUT ROWID, the row lives in its primary
 * key's B-tree: the identifier's index leads to it by id, and the foreign-key probe reads the same
 * leaf as the row. Same columns, types, constraints, unique indexes; the tables that reference
 * `members` keep their references (by name) unchanged.
 *
 * `members` is the parent of most ledger tables, so this is SQLite's documented rebuild of a
 * referenced table: foreign keys off (only possible outside a transaction: on SQLite the
 * migrator runs each migration outside one), the rebuild in one transaction, `foreign_key_check`
 * clean before the commit, foreign keys back as they were. A table already WITHOUT ROWID is left
 * alone. Measured: docs/benchmarks.md, "Cost at ledger size". PostgreSQL stores rows apart from
 * every index by design: nothing to do there.
 */
export const membersClustered: Migration = {
  async up(db: Kysely<any>) {
    if (!(db.getExecutor().adapter instanceof SqliteAdapter)) return;
    const { rows } = await sql<{ sql: string }>`select sql from sqlite_master where type = 'table' and name = 'members'`.execute(db);
    if (/without\s+rowid\s*$/i.test(rows[0]?.sql ?? '')) return;
    const enforced = await foreignKeys(db);
    await sql`pragma foreign_keys = off`.execute(db);
    try {
      // Inside a transaction the pragma does nothing, and dropping `members` would then delete
      // (or refuse to delete) every row referencing it: stop before anything changes.
      if (await foreignKeys(db)) throw new Error('migration 0008 must run outside a transaction (foreign keys could not be turned off)');
      await db.transaction().execute(async (trx) => {
        await sql
          .raw(
            `create table "members_new" ("id" text primary key, "merchant_id" text not null references "merchants" ("id"), ` +
              `"membership_id" text not null, "phone" text, "email" text, "external_id" text, "created_at" text not null, ` +
              `constraint "members_membership_uq" unique ("merchant_id", "membership_id")) without rowid`,
          )
          .execute(trx);
        const columns = sql.raw(COLUMNS.map((c) => `"${c}"`).join(', '));
        await sql`insert into "members_new" (${columns}) select ${columns} from "members" order by "id"`.execute(trx);
        await sql`drop table "members"`.execute(trx);
        await sql`alter table "members_new" rename to "members"`.execute(trx);
        for (const column of ['phone', 'email', 'external_id']) {
          await sql.raw(`create unique index "members_${column}_uq" on "members" ("merchant_id", "${column}")`).execute(trx);
        }
        const broken = await sql<Record<string, unknown>>`pragma foreign_key_check`.execute(trx);
        if (broken.rows.length > 0) {
          throw new Error(`migration 0008: foreign keys broken after rebuilding members: ${JSON.stringify(broken.rows.slice(0, 5))}`);
        }
      });
    } finally {
      if (enforced) await sql`pragma foreign_keys = on`.execute(db);
    }
  },
};

const COLUMNS = ['id', 'merchant_id', 'membership_id', 'phone', 'email', 'external_id', 'created_at'];

async function foreignKeys(db: Kysely<any>): Promise<boolean> {
  const { rows } = await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(db);
  return rows[0]?.foreign_keys === 1;
}
