import { sql, type Kysely, type Migration } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import type { SqlDatabase } from './database.js';
import { migrate, type MigrationSet } from './migrate.js';
import { openTestDatabase, testDialects } from './testing/test-database.js';

/** A migration creating `table` and counting its own runs in `runs`. */
const creating = (table: string): Migration => ({
  async up(db: Kysely<any>) {
    await db.schema
      .createTable(table)
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .execute();
    await db.schema.createTable('runs').ifNotExists().addColumn('name', 'varchar(64)').execute();
    await db.insertInto('runs').values({ name: table }).execute();
  },
});

const owner = (table: string, names: string[]): MigrationSet => ({
  table,
  migrations: Object.fromEntries(names.map((name) => [name, creating(`${table}_${name.slice(5)}`)])),
});

const records = async (db: Kysely<any>, table: string) => db.selectFrom(table).select(['name', 'timestamp']).orderBy('name').execute();
const runs = async (db: Kysely<any>) => (await db.selectFrom('runs').select('name').orderBy('name').execute()).map((r) => r.name);

describe.each(testDialects())('migrate on $name', ({ name }) => {
  let database: SqlDatabase<any>;
  afterEach(() => database.close());

  it('applies the migrations in name order once: a second run applies none and keeps the records', async () => {
    database = await openTestDatabase(name);
    const set: MigrationSet = {
      table: 'one_migrations',
      migrations: { '0002_second': creating('second'), '0001_first': creating('first') },
    };
    expect(await migrate(database.db, set)).toEqual(['0001_first', '0002_second']);
    const before = await records(database.db, 'one_migrations');
    expect(before.map((r) => r.name)).toEqual(['0001_first', '0002_second']);

    expect(await migrate(database.db, set)).toEqual([]);
    expect(await records(database.db, 'one_migrations')).toEqual(before);
    expect(await runs(database.db)).toEqual(['first', 'second']);
  });

  it('applies only the migrations added since the last run', async () => {
    database = await openTestDatabase(name);
    await migrate(database.db, owner('grow_migrations', ['0001_a']));
    const before = await records(database.db, 'grow_migrations');
    expect(await migrate(database.db, owner('grow_migrations', ['0001_a', '0002_b']))).toEqual(['0002_b']);
    expect((await records(database.db, 'grow_migrations'))[0]).toEqual(before[0]);
    expect(await runs(database.db)).toEqual(['grow_migrations_a', 'grow_migrations_b']);
  });

  it('keeps two owners of one database independent, each in its own table', async () => {
    database = await openTestDatabase(name);
    expect(await migrate(database.db, owner('left_migrations', ['0001_x']))).toEqual(['0001_x']);
    expect(await migrate(database.db, owner('right_migrations', ['0001_x', '0002_y']))).toEqual(['0001_x', '0002_y']);
    expect((await records(database.db, 'left_migrations')).map((r) => r.name)).toEqual(['0001_x']);
    expect((await records(database.db, 'right_migrations')).map((r) => r.name)).toEqual(['0001_x', '0002_y']);
  });

  it('takes a database migrated before as it is: recorded migrations never run again', async () => {
    database = await openTestDatabase(name);
    // What a deployed database holds: Kysely's migration and lock tables, named after the owner.
    await sql`create table deployed_migrations (name varchar(255) not null primary key, timestamp varchar(255) not null)`.execute(
      database.db,
    );
    await sql`create table deployed_migrations_lock (id varchar(255) not null primary key, is_locked integer default 0 not null)`.execute(
      database.db,
    );
    await sql`insert into deployed_migrations_lock (id, is_locked) values ('migration_lock', 0)`.execute(database.db);
    await sql`insert into deployed_migrations (name, timestamp) values ('0001_a', '2025-06-01T10:00:00.000Z'), ('0002_b', '2025-06-01T10:00:00.001Z')`.execute(
      database.db,
    );

    expect(await migrate(database.db, owner('deployed_migrations', ['0001_a', '0002_b', '0003_c']))).toEqual(['0003_c']);
    const after = await records(database.db, 'deployed_migrations');
    expect(after.slice(0, 2)).toEqual([
      { name: '0001_a', timestamp: '2025-06-01T10:00:00.000Z' },
      { name: '0002_b', timestamp: '2025-06-01T10:00:00.001Z' },
    ]);
    expect(await runs(database.db)).toEqual(['deployed_migrations_c']);
  });

  it('a failing migration is named, with its table, and is not recorded', async () => {
    database = await openTestDatabase(name);
    const set: MigrationSet = {
      table: 'bad_migrations',
      migrations: {
        '0001_ok': creating('ok'),
        '0002_bad': {
          up: async (db) => {
            await sql`select * from no_such_table`.execute(db);
          },
        },
      },
    };
    await expect(migrate(database.db, set)).rejects.toThrow(/migration 0002_bad \(bad_migrations\) failed/);
    expect((await records(database.db, 'bad_migrations')).map((r) => r.name)).not.toContain('0002_bad');
  });

  it('openTestDatabase brings a fresh database up to date with the sets it is given', async () => {
    database = await openTestDatabase(name, owner('helper_migrations', ['0001_a']));
    expect((await records(database.db, 'helper_migrations')).map((r) => r.name)).toEqual(['0001_a']);
    expect(await migrate(database.db, owner('helper_migrations', ['0001_a']))).toEqual([]);
  });
});
