import { statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createDatabase, SQLITE_DEFAULT_CACHE_MB, type SqlDatabase } from './database.js';
import { openTestDatabase, testDialects } from './testing/test-database.js';
import { isUniqueViolation } from './unique-violation.js';

interface T {
  things: { id: string; big: number; amount: number };
}

describe.each(testDialects())('createDatabase on $name', ({ name }) => {
  let database: SqlDatabase<T>;
  afterEach(() => database.close());

  it('tells its dialect, reads bigint and numeric as numbers, and tells a unique violation from other errors', async () => {
    database = await openTestDatabase<T>(name);
    expect(database.dialect).toBe(name);
    const { db } = database;
    await db.schema
      .createTable('things')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('big', 'bigint')
      .addColumn('amount', 'numeric')
      .execute();
    await db
      .insertInto('things')
      .values({ id: 'a', big: 2 ** 40, amount: 12.5 })
      .execute();
    expect(await db.selectFrom('things').selectAll().execute()).toEqual([{ id: 'a', big: 2 ** 40, amount: 12.5 }]);

    const duplicate = await db
      .insertInto('things')
      .values({ id: 'a', big: 1, amount: 1 })
      .execute()
      .catch((error: unknown) => error);
    expect(isUniqueViolation(duplicate)).toBe(true);
    const other = await sql`select * from no_such_table`.execute(db).catch((error: unknown) => error);
    expect(other).toBeInstanceOf(Error);
    expect(isUniqueViolation(other)).toBe(false);
  });
});

describe('createDatabase on a SQLite file', () => {
  it('opens it in WAL mode with foreign keys on', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'storage-test-'));
    const database = createDatabase<any>({ sqliteFile: join(dir, 'x.sqlite') });
    try {
      const mode = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(database.db);
      expect(mode.rows[0]?.journal_mode).toBe('wal');
      const keys = await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(database.db);
      expect(keys.rows[0]?.foreign_keys).toBe(1);
    } finally {
      await database.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("bounds the connection's page cache: SQLITE_DEFAULT_CACHE_MB (not better-sqlite3's 16 MiB), or sqliteCacheMb", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'storage-test-'));
    const cacheSize = async (database: SqlDatabase<any>) =>
      (await sql<{ cache_size: number }>`pragma cache_size`.execute(database.db)).rows[0]?.cache_size;
    const byDefault = createDatabase<any>({ sqliteFile: join(dir, 'a.sqlite') });
    const chosen = createDatabase<any>({ sqliteFile: join(dir, 'b.sqlite'), sqliteCacheMb: 2 });
    try {
      // Negative: KiB.
      expect(SQLITE_DEFAULT_CACHE_MB).toBe(4);
      expect(await cacheSize(byDefault)).toBe(-4 * 1024);
      expect(await cacheSize(chosen)).toBe(-2 * 1024);
    } finally {
      await byDefault.close();
      await chosen.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("checkpoints at SQLite's 1,000 WAL pages by default, or at sqliteWalAutocheckpointPages: the WAL's length tells", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'storage-test-'));
    const walPages = async (file: string, options: { sqliteWalAutocheckpointPages?: number }) => {
      const database = createDatabase<any>({ sqliteFile: file, ...options });
      try {
        const setting = (await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(database.db)).rows[0];
        await sql`create table t (v blob)`.execute(database.db);
        // 600 commits of one page each (a 3,000-byte value fills most of a 4 KiB page).
        for (let i = 0; i < 600; i += 1) await sql`insert into t values (randomblob(3000))`.execute(database.db);
        return { setting: setting?.wal_autocheckpoint, pages: Math.round(statSync(`${file}-wal`).size / 4096) };
      } finally {
        await database.close().catch(() => undefined);
      }
    };
    try {
      const byDefault = await walPages(join(dir, 'a.sqlite'), {});
      const sooner = await walPages(join(dir, 'b.sqlite'), { sqliteWalAutocheckpointPages: 100 });
      expect(byDefault.setting).toBe(1000);
      expect(sooner.setting).toBe(100);
      // Under 1,000 pages no checkpoint restarted the WAL: every commit's frames are still in it.
      expect(byDefault.pages).toBeGreaterThan(600);
      // Checkpointed at 100 pages, each time restarting the WAL from its start.
      expect(sooner.pages).toBeLessThan(150);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses a PostgreSQL schema name that is not a plain identifier', () => {
    expect(() => createDatabase({ postgresUrl: 'postgres://127.0.0.1:1/x', postgresSchema: 'a"; drop' })).toThrow(
      /invalid PostgreSQL schema name/,
    );
  });
});

describe.runIf(testDialects().some((d) => d.name === 'postgres'))('createDatabase on postgres, a connection lost in use', () => {
  let database: SqlDatabase<T>;
  afterEach(() => database.close());

  it('fails the work on it (not the process) and the pool serves the next query on a new connection', async () => {
    database = await openTestDatabase<T>('postgres');
    const lost = database.db.transaction().execute(async (trx) => {
      await sql`select pg_terminate_backend(pg_backend_pid())`.execute(trx);
    });
    await expect(lost).rejects.toThrow();
    const { rows } = await sql<{ one: number }>`select 1 as one`.execute(database.db);
    expect(rows).toEqual([{ one: 1 }]);
  });
});
