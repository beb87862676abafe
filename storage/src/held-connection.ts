import { CompiledQuery, type Kysely, type QueryResult, type SqliteDatabase } from 'kysely';

/**
 * SQLite's one connection, reached without Kysely's executor while a transaction holds it.
 *
 * Kysely runs every query through its connection provider: on SQLite a mutex, a transaction's own
 * one-at-a-time chain, the result transform, several promises each. For the ledger's hot
 * statements (an earn is eight one-row statements) that machinery cost more than SQLite's own work.
 * A transaction opened with `transaction()` below already holds the only connection (Kysely's
 * SQLite driver serialises all use of it behind that transaction), so statements run on that
 * transaction (`runQuery`, and through it `preparedQuery`) go straight to better-sqlite3's cached
 * statement and answer in the shape Kysely's SQLite driver gives. Any other Kysely instance, and
 * every PostgreSQL one, goes through Kysely as before.
 */

/** A SQLite database's Kysely instance → its connection (the statement-caching handle). */
const connections = new WeakMap<Kysely<any>, SqliteDatabase>();
/** A transaction's Kysely instance → the connection it holds, only while its work runs. */
const held = new WeakMap<Kysely<any>, SqliteDatabase>();

/** Called by createDatabase for a SQLite database. */
export function registerSqliteConnection(db: Kysely<any>, connection: SqliteDatabase): void {
  connections.set(db, connection);
}

/**
 * `db.transaction().execute(work)`; on SQLite the statements `work` runs through `runQuery` or
 * `preparedQuery` on its `trx` use the held connection directly.
 */
export function transaction<DB, T>(db: Kysely<DB>, work: (trx: Kysely<DB>) => Promise<T>): Promise<T> {
  const connection = connections.get(db);
  if (!connection) return db.transaction().execute(work);
  return db.transaction().execute(async (trx) => {
    held.set(trx, connection);
    try {
      return await work(trx);
    } finally {
      held.delete(trx);
    }
  });
}

/** Whether statements run on `db` go to a held SQLite connection directly (a `transaction()`'s trx while its work runs). */
export const holdsConnection = (db: Kysely<any>): boolean => held.has(db);

/** Run one compiled statement: on a held SQLite connection directly, else through Kysely. */
export function runQuery<Row>(db: Kysely<any>, query: CompiledQuery<Row>): Promise<QueryResult<Row>> {
  return held.has(db) ? runSql<Row>(db, query.sql, query.parameters) : db.executeQuery(query);
}

/** `runQuery` for SQL text and its parameters (no CompiledQuery built on the direct path: Kysely's draws a random query id). */
export function runSql<Row>(db: Kysely<any>, sql: string, parameters: readonly unknown[]): Promise<QueryResult<Row>> {
  const connection = held.get(db);
  return connection ? settle(() => runOn<Row>(connection, sql, parameters)) : db.executeQuery(CompiledQuery.raw(sql, [...parameters]));
}

/** A statement's failure (a constraint, a busy database) as a rejected promise, as through Kysely; never a synchronous throw. */
function settle<T>(run: () => T): Promise<T> {
  try {
    return Promise.resolve(run());
  } catch (error) {
    return Promise.reject(error as Error);
  }
}

/** What Kysely's SqliteConnection.executeQuery answers, without its promise chain. */
function runOn<Row>(connection: SqliteDatabase, sql: string, parameters: readonly unknown[]): QueryResult<Row> {
  const statement = connection.prepare(sql);
  if (statement.reader) return { rows: statement.all(parameters) as Row[] };
  const { changes, lastInsertRowid } = statement.run(parameters);
  return {
    numAffectedRows: changes !== undefined && changes !== null ? BigInt(changes) : undefined,
    insertId: lastInsertRowid !== undefined && lastInsertRowid !== null ? BigInt(lastInsertRowid) : undefined,
    rows: [],
  };
}
