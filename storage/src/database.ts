import Database from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, type SqliteDatabase } from 'kysely';
import { createRequire } from 'node:module';
import type * as Pg from 'pg';
import { registerSqliteConnection } from './held-connection.js';
import { preparedStatementName } from './prepared-query.js';

export type SqlDialect = 'sqlite' | 'postgres';

export interface DatabaseOptions {
  /** PostgreSQL connection string; when set, PostgreSQL is used. */
  postgresUrl?: string | undefined;
  /** PostgreSQL schema to work in (created if missing); tests use one schema each. */
  postgresSchema?: string | undefined;
  /** SQLite file path, or ':memory:'. Used when no PostgreSQL URL is given. */
  sqliteFile?: string | undefined;
  /** Pool size for PostgreSQL. */
  poolSize?: number | undefined;
  /**
   * SQLite: the connection's page cache in MiB. Default: SQLITE_DEFAULT_CACHE_MB, not
   * better-sqlite3's build default of 16 MiB, which a busy connection fills (see SQLITE_DEFAULT_CACHE_MB).
   */
  sqliteCacheMb?: number | undefined;
  /**
   * SQLite: the WAL's length in pages at which a commit on this connection checkpoints it
   * (`wal_autocheckpoint`). Default: SQLite's 1,000. A connection whose file another connection
   * checkpoints in the background takes a longer one (the gateway's LEDGER_WAL_AUTOCHECKPOINT_PAGES).
   */
  sqliteWalAutocheckpointPages?: number | undefined;
  /**
   * Told when an idle pooled PostgreSQL connection fails (the server restarted, a proxy reaped it).
   * The pool drops that connection and opens another on its next checkout; without a listener the
   * pool's 'error' event would end the process. Default: one line on stderr.
   */
  onPoolError?: ((error: Error) => void) | undefined;
}

export interface SqlDatabase<DB> {
  db: Kysely<DB>;
  dialect: SqlDialect;
  close(): Promise<void>;
}

/**
 * SQLite's page cache per connection when none is given, in MiB. The pages it does not hold are
 * read again from the operating system's file cache (a system call, no disk), so a small cache
 * costs little CPU, while better-sqlite3's 16 MiB per connection filled under load: measured
 * with bench/memory.ts, the gateway's three connections took the process's peak RSS from ~170
 * to ~203 MiB (docs/benchmarks.md).
 */
export const SQLITE_DEFAULT_CACHE_MB = 4;

/** `PRAGMA cache_size` for a cache of this many MiB (a negative size is in KiB). */
export const sqliteCacheSizePragma = (mb: number): string => `cache_size = -${Math.round(mb * 1024)}`;

/**
 * pg, loaded on first use: a process on SQLite never loads the PostgreSQL driver (measured with
 * bench/memory.ts, leaving pg, ioredis and undici unloaded on SQLite took 7 MiB off the gateway's
 * resident memory, idle and under load).
 */
let pgModule: typeof Pg | undefined;
const pg = (): typeof Pg => (pgModule ??= createRequire(import.meta.url)('pg') as typeof Pg);

// int8 (bigint) and numeric come back from pg as strings; every such column here fits a double.
const pgTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === 20 || oid === 1700) return (value: string) => Number(value);
    return pg().types.getTypeParser(oid, format);
  },
};

export const isValidSchemaName = (name: string): boolean => /^[a-z_][a-z0-9_]{0,62}$/.test(name);

/** One Kysely instance on SQLite (better-sqlite3, WAL) or PostgreSQL (pg pool). */
export function createDatabase<DB>(options: DatabaseOptions): SqlDatabase<DB> {
  if (options.postgresUrl) {
    const schema = options.postgresSchema;
    if (schema !== undefined && !isValidSchemaName(schema)) throw new Error(`invalid PostgreSQL schema name: ${schema}`);
    const pool = new (pg().Pool)({
      connectionString: options.postgresUrl,
      max: options.poolSize ?? 10,
      types: pgTypes,
      ...(schema ? { options: `-c search_path=${schema}` } : {}),
    });
    pool.on('connect', (client) => {
      nameHotStatements(client);
      // A connection lost while checked out (the server restarted, the backend was terminated)
      // emits 'error' on its client, which the pool listens to only while the client is idle:
      // unheard, it would end the process. The query in flight already fails with that error
      // (so does the transaction around it), and the pool drops the client on release.
      client.on('error', () => undefined);
    });
    pool.on(
      'error',
      options.onPoolError ?? ((error) => console.error(`PostgreSQL connection lost (the pool reconnects): ${error.message}`)),
    );
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
    return { db, dialect: 'postgres', close: () => db.destroy() };
  }
  const file = options.sqliteFile ?? ':memory:';
  const sqlite = new Database(file);
  sqlite.pragma('journal_mode = WAL');
  // NORMAL: a committed transaction survives a process crash (kill -9); see docs/decisions.md.
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma(sqliteCacheSizePragma(options.sqliteCacheMb ?? SQLITE_DEFAULT_CACHE_MB));
  if (options.sqliteWalAutocheckpointPages !== undefined) sqlite.pragma(`wal_autocheckpoint = ${options.sqliteWalAutocheckpointPages}`);
  const connection = withStatementCache(sqlite);
  const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: connection }) });
  registerSqliteConnection(db, connection);
  return { db, dialect: 'sqlite', close: () => db.destroy() };
}

/**
 * Run the queries compiled by preparedQuery as named prepared statements on this connection (pg
 * prepares a name once per connection and then only binds and executes it); every other query
 * goes through unchanged. Kysely's driver calls `query(text, values)`.
 */
function nameHotStatements(client: Pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  client.query = ((...args: unknown[]) => {
    const [text, values] = args;
    const name = typeof text === 'string' && args.length === 2 && Array.isArray(values) ? preparedStatementName(text) : undefined;
    return name ? query({ name, text, values }) : query(...args);
  }) as typeof client.query;
}

const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely's SQLite driver prepares every query anew; preparing was ~15 % of the earn path. Reuse
 * prepared statements by SQL text (Kysely runs one query at a time per connection; a statement
 * still busy in an open iterator is never shared). The cache is cleared when it grows past its bound.
 */
function withStatementCache(sqlite: Database.Database): SqliteDatabase {
  const cache = new Map<string, Database.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      const cached = cache.get(sql);
      if (cached && !cached.busy) return cached;
      const statement = sqlite.prepare(sql);
      if (cached) return statement;
      if (cache.size >= STATEMENT_CACHE_SIZE) cache.clear();
      cache.set(sql, statement);
      return statement;
    },
  };
}

/** Create the PostgreSQL schema a database was opened in (no-op on SQLite). */
export async function ensureSchema(options: DatabaseOptions): Promise<void> {
  if (!options.postgresUrl || !options.postgresSchema) return;
  const client = new (pg().Client)({ connectionString: options.postgresUrl });
  await client.connect();
  try {
    await client.query(`create schema if not exists "${options.postgresSchema}"`);
  } finally {
    await client.end();
  }
}
