import { PostgresAdapter, type Compilable, type Kysely, type QueryResult, type RawBuilder } from 'kysely';
import { runSql } from './held-connection.js';

const SLOT = '\u0000slot:';

interface Compiled {
  sql: string;
  /** Per parameter: the name of the value to bind, or a constant the builder fixed. */
  bind: Array<{ slot: string } | { value: unknown }>;
}

/**
 * A hot-path query written once with Kysely and compiled once per dialect; each run binds new
 * values into the compiled SQL instead of rebuilding and recompiling the query tree (measured:
 * building and compiling cost more than executing a one-row statement on SQLite).
 *
 * On PostgreSQL each such query also runs as a named prepared statement (see
 * preparedStatementName): each pooled connection parses and plans it once, and later runs send
 * only Bind/Execute, where an unnamed statement is parsed and planned by the server on every run.
 *
 * `build` receives named slots in place of values: use each only as a value (in `values`,
 * `where`, `set`, `sql` interpolations), one property at a time — `{ ...slots }` is empty (the
 * slots object has no keys of its own). Shapes that vary per call (lists of any length) do not fit.
 * On a database with plugins (`withPlugin`), `build` is called with the values themselves at each
 * run, so that the plugins see the statement.
 */
export function preparedQuery<Values extends Record<string, unknown>, Row>(
  build: (db: Kysely<any>, slots: Values) => Compilable<Row>,
): (db: Kysely<any>, values: Values) => Promise<QueryResult<Row>> {
  const byDialect = new Map<unknown, Compiled>();
  const slots = new Proxy({}, { get: (_target, name) => SLOT + String(name) }) as Values;
  return (db, values) => {
    const executor = db.getExecutor();
    // A database with plugins (a test's slow or failing statements, a caller's own logging) gets
    // the statement built at this call, as any query-builder statement: each plugin sees its tree
    // and its answer, which a statement compiled once would pass by.
    if (executor.plugins.length > 0) return db.executeQuery(build(db, values));
    const dialect = executor.adapter.constructor;
    let compiled = byDialect.get(dialect);
    if (!compiled) {
      const query = build(db, slots).compile();
      if (executor.adapter instanceof PostgresAdapter) nameStatement(query.sql);
      compiled = {
        sql: query.sql,
        bind: query.parameters.map((p) => (typeof p === 'string' && p.startsWith(SLOT) ? { slot: p.slice(SLOT.length) } : { value: p })),
      };
      byDialect.set(dialect, compiled);
    }
    const parameters = compiled.bind.map((b) => ('slot' in b ? values[b.slot] : b.value));
    return runSql<Row>(db, compiled.sql, parameters);
  };
}

/** A `sql` template as preparedQuery's build result (a raw statement compiled for `db`'s dialect). */
export const rawStatement = <Row>(db: Kysely<any>, query: RawBuilder<Row>): Compilable<Row> => ({ compile: () => query.compile(db) });

/** SQL text of the hot queries → the name each connection prepares it under (`lg_1`, `lg_2`, …). */
const statementNames = new Map<string, string>();

function nameStatement(text: string): void {
  if (!statementNames.has(text)) statementNames.set(text, `lg_${statementNames.size + 1}`);
}

/**
 * The prepared-statement name of a PostgreSQL query compiled by preparedQuery, undefined for any
 * other query (those stay unnamed). The pool's connections use it (database.ts).
 */
export const preparedStatementName = (text: string): string | undefined => statementNames.get(text);
