import { sql, type KyselyPlugin, type RootOperationNode } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import type { SqlDatabase } from './database.js';
import { preparedQuery } from './prepared-query.js';
import { openTestDatabase, testDialects } from './testing/test-database.js';

interface T {
  things: { id: string; n: number; label: string };
}

const insert = preparedQuery((db, v: { id: string; n: number }) =>
  db
    .insertInto('things')
    .values({ id: v.id, n: v.n, label: 'fixed' })
    .onConflict((oc) => oc.column('id').doNothing())
    .returning('id'),
);
const bump = preparedQuery((db, v: { id: string; by: number }) =>
  db
    .updateTable('things')
    .set({ n: sql`n + ${v.by}` })
    .where('id', '=', v.id),
);
const byId = preparedQuery((db, v: { id: string }) =>
  db.selectFrom('things').select(['id', 'n', 'label']).where('id', '=', v.id).where('id', '=', v.id),
);

describe.each(testDialects())('preparedQuery on $name', ({ name }) => {
  let database: SqlDatabase<T>;
  afterEach(() => database.close());

  it('binds new values on every run, keeps constants, and works inside transactions', async () => {
    database = await openTestDatabase<T>(name);
    const { db } = database;
    await db.schema
      .createTable('things')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('n', 'integer')
      .addColumn('label', 'text')
      .execute();
    expect((await insert(db, { id: 'a', n: 1 })).rows).toEqual([{ id: 'a' }]);
    expect((await insert(db, { id: 'b', n: 5 })).rows).toEqual([{ id: 'b' }]);
    expect((await insert(db, { id: 'a', n: 9 })).rows).toEqual([]); // conflict: nothing inserted
    await db.transaction().execute(async (trx) => {
      await bump(trx, { id: 'b', by: 10 });
    });
    expect((await byId(db, { id: 'b' })).rows).toEqual([{ id: 'b', n: 15, label: 'fixed' }]);
    expect((await byId(db, { id: 'a' })).rows).toEqual([{ id: 'a', n: 1, label: 'fixed' }]);
    expect((await byId(db, { id: 'zzz' })).rows).toEqual([]);
  });

  it('on a database with plugins, every run passes through them as a statement built at the call would', async () => {
    database = await openTestDatabase<T>(name);
    await database.db.schema
      .createTable('things')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('n', 'integer')
      .addColumn('label', 'text')
      .execute();
    const seen: string[] = [];
    const answered: unknown[] = [];
    const watching: KyselyPlugin = {
      transformQuery: ({ node }) => (seen.push(node.kind), node) as RootOperationNode,
      transformResult: async ({ result }) => (answered.push(result.rows), result),
    };
    const db = database.db.withPlugin(watching);
    await insert(db, { id: 'a', n: 1 });
    await insert(db, { id: 'b', n: 2 });
    await db.transaction().execute((trx) => bump(trx, { id: 'b', by: 3 }));
    expect((await byId(db, { id: 'b' })).rows).toEqual([{ id: 'b', n: 5, label: 'fixed' }]);
    expect(seen).toEqual(['InsertQueryNode', 'InsertQueryNode', 'UpdateQueryNode', 'SelectQueryNode']);
    expect(answered).toEqual([[{ id: 'a' }], [{ id: 'b' }], [], [{ id: 'b', n: 5, label: 'fixed' }]]);
    // The database without plugins still runs the statement compiled once.
    expect((await byId(database.db, { id: 'a' })).rows).toEqual([{ id: 'a', n: 1, label: 'fixed' }]);
    expect(seen).toHaveLength(4);
  });
});

describe.runIf(testDialects().some((d) => d.name === 'postgres'))('preparedQuery on postgres', () => {
  let database: SqlDatabase<T>;
  afterEach(() => database.close());

  it('runs as a named prepared statement, prepared once per connection; other queries stay unnamed', async () => {
    database = await openTestDatabase<T>('postgres');
    const { db } = database;
    await db.schema
      .createTable('things')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('n', 'integer')
      .addColumn('label', 'text')
      .execute();
    const prepared = await db.connection().execute(async (conn) => {
      await insert(conn, { id: 'a', n: 1 });
      await insert(conn, { id: 'b', n: 2 });
      await bump(conn, { id: 'a', by: 5 });
      await conn.selectFrom('things').select('id').where('n', '>', 0).execute();
      const { rows } = await sql<{
        name: string;
        statement: string;
      }>`select name, statement from pg_prepared_statements order by name`.execute(conn);
      return rows;
    });
    expect(prepared).toHaveLength(2);
    expect(prepared.every((p) => /^lg_\d+$/.test(p.name))).toBe(true);
    expect(prepared.map((p) => p.statement.split(' ')[0])).toEqual(expect.arrayContaining(['insert', 'update']));
    expect((await byId(db, { id: 'a' })).rows).toEqual([{ id: 'a', n: 6, label: 'fixed' }]);
  });
});
