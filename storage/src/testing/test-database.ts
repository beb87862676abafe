import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createDatabase, ensureSchema, type DatabaseOptions, type SqlDatabase } from '../database.js';
import { migrate, type MigrationSet } from '../migrate.js';

/**
 * The dialects a contract suite runs on: SQLite always, PostgreSQL whenever DATABASE_URL is set.
 * Use with `describe.each(testDialects())`.
 */
export function testDialects(): Array<{ name: 'sqlite' | 'postgres' }> {
  return process.env.DATABASE_URL ? [{ name: 'sqlite' }, { name: 'postgres' }] : [{ name: 'sqlite' }];
}

/**
 * A fresh database for one test: SQLite in memory, or a new PostgreSQL schema that is dropped
 * again on close. Brought up to date with each of `sets` in order (as boot does), empty without.
 */
export async function openTestDatabase<DB>(dialect: 'sqlite' | 'postgres', ...sets: MigrationSet[]): Promise<SqlDatabase<DB>> {
  const database = await openEmpty<DB>(dialect);
  try {
    for (const set of sets) await migrate(database.db, set);
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}

async function openEmpty<DB>(dialect: 'sqlite' | 'postgres'): Promise<SqlDatabase<DB>> {
  if (dialect === 'sqlite') return createDatabase<DB>({ sqliteFile: ':memory:' });
  const { options, dispose } = await testDatabaseOptions('postgres');
  const opened = createDatabase<DB>(options);
  return {
    ...opened,
    async close() {
      await opened.close();
      await dispose();
    },
  };
}

/**
 * Where a fresh, empty database for one test lives, for code that opens it itself (another
 * thread or process): a SQLite file in a new temp directory, or a new PostgreSQL schema.
 * `dispose` removes it once everything that opened it is closed.
 */
export async function testDatabaseOptions(dialect: 'sqlite' | 'postgres'): Promise<{ options: DatabaseOptions; dispose(): Promise<void> }> {
  if (dialect === 'sqlite') {
    const dir = await mkdtemp(join(tmpdir(), 'storage-test-'));
    return { options: { sqliteFile: join(dir, 'engine.sqlite') }, dispose: () => rm(dir, { recursive: true, force: true }) };
  }
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is not set');
  const schema = `t_${randomBytes(6).toString('hex')}`;
  await ensureSchema({ postgresUrl: url, postgresSchema: schema });
  return {
    options: { postgresUrl: url, postgresSchema: schema, poolSize: 20 },
    dispose: () => runPostgresStatement(url, `drop schema if exists "${schema}" cascade`),
  };
}

/** One statement on its own short-lived connection (creating and dropping test schemas). */
export async function runPostgresStatement(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** A DATABASE_URL whose connections use `schema` (for a gateway process started with it). */
export const postgresUrlWithSchema = (url: string, schema: string): string =>
  `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
