import { CompiledQuery, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import type { SqlDatabase } from './database.js';
import { holdsConnection, runQuery, transaction } from './held-connection.js';
import { preparedQuery } from './prepared-query.js';
import { openTestDatabase, testDialects } from './testing/test-database.js';

interface T {
  counters: { id: string; n: number };
}

const readCounter = preparedQuery((db, v: { id: string }) => db.selectFrom('counters').select(['id', 'n']).where('id', '=', v.id));
const setCounter = preparedQuery((db, v: { id: string; n: number }) => db.updateTable('counters').set({ n: v.n }).where('id', '=', v.id));
/** Raw SQL's parameter markers in each dialect. */
const param = (name: 'sqlite' | 'postgres', i: number) => (name === 'sqlite' ? '?' : `$${i}`);

async function openWithCounters(name: 'sqlite' | 'postgres'): Promise<SqlDatabase<T>> {
  const database = await openTestDatabase<T>(name);
  await database.db.schema
    .createTable('counters')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('n', 'integer', (c) => c.notNull())
    .execute();
  await sql`insert into counters (id, n) values ('c', 0)`.execute(database.db);
  return database;
}

describe.each(testDialects())('transaction() and runQuery on $name', ({ name }) => {
  let database: SqlDatabase<T>;
  afterEach(() => database.close());

  it('holds SQLite connection only inside its work, never on PostgreSQL or outside a transaction', async () => {
    database = await openWithCounters(name);
    const { db } = database;
    let inside: boolean | undefined;
    let trxSeen: typeof db | undefined;
    await transaction(db, async (trx) => {
      inside = holdsConnection(trx);
      trxSeen = trx;
    });
    expect(inside).toBe(name === 'sqlite');
    expect(holdsConnection(trxSeen!)).toBe(false);
    expect(holdsConnection(db)).toBe(false);
  });

  it('answers as Kysely does: rows of a read, affected rows of a write', async () => {
    database = await openWithCounters(name);
    const { db } = database;
    const viaKysely = {
      read: await db.executeQuery(CompiledQuery.raw(`select id, n from counters where id = ${param(name, 1)}`, ['c'])),
    };
    const answers = await transaction(db, async (trx) => ({
      read: await readCounter(trx, { id: 'c' }),
      write: await setCounter(trx, { id: 'c', n: 7 }),
      missing: await setCounter(trx, { id: 'nope', n: 1 }),
    }));
    expect(answers.read.rows).toEqual(viaKysely.read.rows);
    expect(answers.read.rows).toEqual([{ id: 'c', n: 0 }]);
    expect(answers.write.numAffectedRows).toBe(1n);
    expect(answers.write.rows).toEqual([]);
    expect(answers.missing.numAffectedRows).toBe(0n);
    expect((await readCounter(db, { id: 'c' })).rows).toEqual([{ id: 'c', n: 7 }]);
  });

  it('rolls back what its work ran directly when the work throws', async () => {
    database = await openWithCounters(name);
    const { db } = database;
    await expect(
      transaction(db, async (trx) => {
        await setCounter(trx, { id: 'c', n: 99 });
        await runQuery(trx, CompiledQuery.raw(`insert into counters (id, n) values (${param(name, 1)}, ${param(name, 2)})`, ['d', 1]));
        throw new Error('the unit failed');
      }),
    ).rejects.toThrow('the unit failed');
    expect((await db.selectFrom('counters').selectAll().orderBy('id').execute()).map((r) => [r.id, r.n])).toEqual([['c', 0]]);
  });

  it('keeps concurrent transactions apart: read-then-write increments are never lost', async () => {
    database = await openWithCounters(name);
    const { db } = database;
    const increments = 25;
    await Promise.all(
      Array.from({ length: increments }, () =>
        transaction(db, async (trx) => {
          // PostgreSQL needs the row lock a direct SQLite connection gets from holding the only connection.
          const { rows } =
            name === 'postgres'
              ? await trx.executeQuery<{ n: number }>(CompiledQuery.raw('select n from counters where id = $1 for update', ['c']))
              : await readCounter(trx, { id: 'c' });
          await new Promise((resolve) => setImmediate(resolve)); // let the other transactions try to interleave
          await setCounter(trx, { id: 'c', n: Number(rows[0]!.n) + 1 });
        }),
      ),
    );
    expect((await readCounter(db, { id: 'c' })).rows).toEqual([{ id: 'c', n: increments }]);
  });
});

describe('a failing statement on the held SQLite connection', () => {
  let database: SqlDatabase<T>;
  afterEach(() => database.close());

  it('rejects its promise (as through Kysely), never throws where it is called', async () => {
    database = await openWithCounters('sqlite');
    const duplicate = CompiledQuery.raw('insert into counters (id, n) values (?, ?)', ['c', 1]); // 'c' exists
    const outcome = await transaction(database.db, async (trx) => {
      let thrown: unknown = null;
      let promise: Promise<unknown> | undefined;
      try {
        promise = runQuery(trx, duplicate);
      } catch (error) {
        thrown = error;
      }
      const rejection = await promise?.then(
        () => null,
        (error: unknown) => error,
      );
      return { thrown, rejection };
    });
    expect(outcome.thrown).toBeNull();
    expect(outcome.rejection).toMatchObject({ code: 'SQLITE_CONSTRAINT_PRIMARYKEY' });
  });
});
