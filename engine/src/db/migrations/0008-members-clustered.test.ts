import { sql, type Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEmbeddedEngine } from '../../ledger/create-embedded-engine.js';
import { ANN, BOB, IDS, SCOPE, balanceOf, ledgerSum, line, sale, testSeed } from '../../testing/fixture.js';
import { migrate, type SqlDatabase } from '@loyalty-gateway/storage';
import type { EngineTables } from '../schema.js';
import { openTestDatabase, testDialects } from '@loyalty-gateway/storage/testing';
import { engineMigrations } from './index.js';
import { membersClustered } from './0008-members-clustered.js';

const before0008 = {
  table: engineMigrations.table,
  migrations: Object.fromEntries(Object.entries(engineMigrations.migrations).filter(([name]) => name < '0008')),
};

/** `members` and every table that references it. */
const TABLES = ['members', 'wallets', 'stamp_cards', 'sales', 'ledger_entries', 'redemptions', 'refunds', 'reward_instances'];

/** Every row of those tables, each table's rows in one order. */
async function rowsOf(db: Kysely<any>): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const table of TABLES) {
    const rows = await db.selectFrom(table).selectAll().execute();
    out[table] = rows.map((row) => JSON.stringify(row)).sort();
  }
  return out;
}

/** SQLite's view of the schema: each object's SQL, and each table's columns, indexes and references. */
async function sqliteSchema(db: Kysely<any>) {
  const objects = await sql<{
    type: string;
    name: string;
    sql: string | null;
  }>`select type, name, sql from sqlite_master where name not like 'sqlite_autoindex_%' order by name`.execute(db);
  const tables: Record<string, unknown> = {};
  for (const table of TABLES) {
    const indexes = await sql<{ name: string; unique: number; origin: string; partial: number }>`
      select name, "unique", origin, partial from pragma_index_list(${table})`.execute(db);
    const described = [];
    for (const index of indexes.rows) {
      const columns = await sql<{ name: string }>`select name from pragma_index_info(${index.name}) order by seqno`.execute(db);
      // An automatic index's number follows its place among the table's constraints: described by
      // its origin and columns instead.
      described.push({
        ...index,
        name: index.name.startsWith('sqlite_autoindex_') ? 'auto' : index.name,
        columns: columns.rows.map((c) => c.name),
      });
    }
    tables[table] = {
      columns: (await sql`select * from pragma_table_info(${table}) order by cid`.execute(db)).rows,
      indexes: described.sort((a, b) =>
        `${a.origin} ${a.name} ${a.columns.join()}`.localeCompare(`${b.origin} ${b.name} ${b.columns.join()}`),
      ),
      references: (await sql`select * from pragma_foreign_key_list(${table}) order by id, seq`.execute(db)).rows,
    };
  }
  return { objects: objects.rows, tables };
}

/** The database at 0007 with the rows the engine writes there: members, wallets, cards, sales, ledger, redemptions, refunds, codes. */
async function seedThrough0007(database: SqlDatabase<EngineTables>): Promise<void> {
  await migrate(database.db, before0008);
  const engine = await createEmbeddedEngine({ database });
  try {
    await engine.applySeed(testSeed());
    const coffee = sale({ totalMinor: 1800, items: [line('Coffee', 4)] });
    await engine.earn(coffee);
    await engine.earn(sale({ customer: BOB, totalMinor: 60_000 }));
    await engine.redeem({ ...SCOPE, customer: ANN, externalTransactionId: 'order-1', rewardId: IDS.points });
    await engine.redeem({ ...SCOPE, customer: BOB, externalTransactionId: 'order-2', pointsToRedeem: 100 });
    await engine.reverse({ ...SCOPE, transactionId: coffee.transaction.id, refundId: 'r-1', amountMinor: 900 });
  } finally {
    await engine.close();
  }
}

describe.each(testDialects())('migration 0008 (members clustered) on $name', ({ name }) => {
  let database: SqlDatabase<EngineTables>;
  beforeEach(async () => {
    database = await openTestDatabase<EngineTables>(name);
  });
  afterEach(async () => {
    await database.close();
  });

  it('keeps every member and every row that references one, the schema and its references, and the engine earns afterwards', async () => {
    await seedThrough0007(database);
    const rows = await rowsOf(database.db);
    for (const table of TABLES) expect(rows[table]!.length, table).toBeGreaterThan(0);
    const schema = name === 'sqlite' ? await sqliteSchema(database.db) : undefined;

    expect(await migrate(database.db, engineMigrations)).toEqual(['0008_members_clustered']);

    expect(await rowsOf(database.db)).toEqual(rows);
    if (name === 'sqlite') {
      const after = await sqliteSchema(database.db);
      // `members` alone changed, and only by WITHOUT ROWID: the same columns, indexes (the
      // primary key's now holds the rows) and references, to and from it.
      const membersSql = (s: typeof after) => s.objects.find((o) => o.name === 'members')?.sql;
      expect(membersSql(after)).toBe(`${membersSql(schema!)} without rowid`);
      expect(after.objects.filter((o) => o.name !== 'members')).toEqual(schema!.objects.filter((o) => o.name !== 'members'));
      // WITHOUT ROWID makes a primary key NOT NULL, as PostgreSQL's always was (a rowid table lets
      // a text key be NULL; the engine never wrote one): the one difference in the columns.
      const expected = structuredClone(schema!.tables) as Record<string, { columns: Array<{ name: string; notnull: number }> }>;
      expected.members!.columns.find((c) => c.name === 'id')!.notnull = 1;
      expect(after.tables).toEqual(expected);
      expect((await sql`pragma foreign_key_check`.execute(database.db)).rows).toEqual([]);
      expect((await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(database.db)).rows[0]?.foreign_keys).toBe(1);
    }

    // The references to members still hold: no ledger row for an unknown member, no member
    // deleted or re-keyed while rows reference it.
    const member = await database.db
      .selectFrom('members')
      .select(['id', 'phone'])
      .where('membership_id', '=', ANN.value)
      .executeTakeFirstOrThrow();
    await expect(
      database.db
        .insertInto('ledger_entries')
        .values({ id: 'le-x', member_id: 'nobody', kind: 'ADJUST', points: 1, ref_id: 'x', created_at: '2026-01-01T00:00:00Z' })
        .execute(),
    ).rejects.toThrow(/foreign key/i);
    await expect(database.db.deleteFrom('members').where('id', '=', member.id).execute()).rejects.toThrow(/foreign key/i);
    await expect(database.db.updateTable('members').set({ id: 'renamed' }).where('id', '=', member.id).execute()).rejects.toThrow(
      /foreign key/i,
    );
    // And its own: a member of no merchant, a second MBR-0001 or a second phone is refused.
    const merchantId = testSeed().merchants[0]!.id;
    const newMember = (id: string, extra: Record<string, string>) => ({
      id,
      merchant_id: merchantId,
      membership_id: `MBR-${id}`,
      phone: null,
      email: null,
      external_id: null,
      created_at: '2026-01-01T00:00:00Z',
      ...extra,
    });
    await expect(
      database.db
        .insertInto('members')
        .values(newMember('m-x', { merchant_id: 'nobody' }))
        .execute(),
    ).rejects.toThrow(/foreign key/i);
    await expect(
      database.db
        .insertInto('members')
        .values(newMember('m-y', { membership_id: ANN.value }))
        .execute(),
    ).rejects.toThrow(/unique|duplicate/i);
    await expect(
      database.db
        .insertInto('members')
        .values(newMember('m-z', { phone: member.phone! }))
        .execute(),
    ).rejects.toThrow(/unique|duplicate/i);
    await expect(database.db.insertInto('members').values(newMember(member.id, {})).execute()).rejects.toThrow(/unique|duplicate/i);

    // A member nothing references is still updated and deleted as before.
    await database.db.insertInto('members').values(newMember('m-free', {})).execute();
    await database.db.updateTable('members').set({ phone: '+15550109999' }).where('id', '=', 'm-free').execute();
    await database.db.deleteFrom('members').where('id', '=', 'm-free').execute();
    expect(await database.db.selectFrom('members').select('id').where('id', '=', 'm-free').execute()).toEqual([]);

    const engine = await createEmbeddedEngine({ database });
    try {
      const balance = await balanceOf(database.db, ANN.value);
      const outcome = await engine.earn(sale({ totalMinor: 1000, items: [line('Coffee', 1)] }));
      expect(outcome).toMatchObject({ status: 'processed', pointsEarned: 10 });
      expect(await balanceOf(database.db, ANN.value)).toBe(balance + 10);
      expect(await ledgerSum(database.db, ANN.value)).toBe(balance + 10);
      // Migrating again does nothing.
      expect(await migrate(database.db, engineMigrations)).toEqual([]);
    } finally {
      await engine.close();
    }
  });

  it.runIf(name === 'sqlite')('leaves a members table already WITHOUT ROWID alone when run again', async () => {
    await seedThrough0007(database);
    await migrate(database.db, engineMigrations);
    const rows = await rowsOf(database.db);
    const schema = await sqliteSchema(database.db);
    const pages = () => sql`select name, rootpage from sqlite_master order by name`.execute(database.db);
    const before = (await pages()).rows;
    await membersClustered.up(database.db);
    // Not rebuilt again (a rebuild would give the same schema, but in new pages).
    expect((await pages()).rows).toEqual(before);
    expect(await sqliteSchema(database.db)).toEqual(schema);
    expect(await rowsOf(database.db)).toEqual(rows);
  });

  it.runIf(name === 'sqlite')(
    'refuses to run inside a transaction, where foreign keys cannot be turned off, and changes nothing',
    async () => {
      await seedThrough0007(database);
      const rows = await rowsOf(database.db);
      const schema = await sqliteSchema(database.db);
      await expect(database.db.transaction().execute((trx) => membersClustered.up(trx))).rejects.toThrow(/outside a transaction/);
      expect(await sqliteSchema(database.db)).toEqual(schema);
      expect(await rowsOf(database.db)).toEqual(rows);
      expect((await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(database.db)).rows[0]?.foreign_keys).toBe(1);
    },
  );
});
