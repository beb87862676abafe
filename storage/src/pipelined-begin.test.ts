import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createDatabase, type SqlDatabase } from './database.js';
import { transaction } from './held-connection.js';
import { preparedQuery, rawStatement } from './prepared-query.js';
import { delayingProxy, type DelayingProxy } from './testing/delaying-proxy.js';
import { testDatabaseOptions } from './testing/test-database.js';

const url = process.env.DATABASE_URL;

interface T {
  notes: { id: number; body: string };
}

const readsOnly = preparedQuery((db) => rawStatement(db, sql<{ xid: string }>`select txid_current()::text as xid`), {
  writesNothing: true,
});
const readsUndeclared = preparedQuery((db) => rawStatement(db, sql<{ xid: string }>`select txid_current()::text as xid, 1 as undeclared`));
const insertNote = preparedQuery((db, v: { id: number }) => rawStatement(db, sql`insert into notes (id, body) values (${v.id}, 'kept?')`));

describe.skipIf(!url)("a transaction's BEGIN and its first statement (PostgreSQL)", () => {
  let proxy: DelayingProxy;
  let database: SqlDatabase<T>;
  let dispose: () => Promise<void>;

  /** The schema's database through the proxy, one connection, opened and answering. */
  async function open(): Promise<SqlDatabase<T>> {
    const test = await testDatabaseOptions('postgres');
    dispose = test.dispose;
    proxy = await delayingProxy(new URL(test.options.postgresUrl!));
    database = createDatabase<T>({ ...test.options, postgresUrl: proxy.url, poolSize: 1 });
    await sql`create table notes (id int primary key, body text not null)`.execute(database.db);
    return database;
  }

  afterEach(async () => {
    await database.close();
    await proxy.close();
    await dispose();
  });

  it('go in one round trip when the statement writes nothing, and it runs inside the transaction', async () => {
    const { db } = await open();
    const before = proxy.flights();
    const xids = await transaction(db, async (trx) => {
      const first = (await readsOnly(trx, {})).rows[0]!.xid;
      const second = (await readsUndeclared(trx, {})).rows[0]!.xid;
      return { first, second };
    });
    // BEGIN with the first statement, the second statement, COMMIT: three flights, not four.
    expect(proxy.flights() - before).toBe(3);
    // One transaction: both statements saw the same transaction id.
    expect(xids.first).toBe(xids.second);
    // Outside a transaction each statement is its own.
    const alone = (await readsOnly(db, {})).rows[0]!.xid;
    expect(alone).not.toBe(xids.first);
  });

  it('go one after the other when the first statement is not declared to write nothing', async () => {
    const { db } = await open();
    const before = proxy.flights();
    await transaction(db, async (trx) => {
      await readsUndeclared(trx, {});
      await readsUndeclared(trx, {});
    });
    // BEGIN, then (once it was answered) each statement, then COMMIT.
    expect(proxy.flights() - before).toBe(4);
  });

  it('keep the transaction whole: a failure after the pipelined statement rolls back what followed it', async () => {
    const { db } = await open();
    await expect(
      transaction(db, async (trx) => {
        await readsOnly(trx, {});
        await insertNote(trx, { id: 1 });
        throw new Error('the unit failed');
      }),
    ).rejects.toThrow('the unit failed');
    expect((await sql<{ n: number }>`select count(*)::int as n from notes`.execute(db)).rows[0]!.n).toBe(0);
    // The connection went back clean: the next transaction commits what it writes.
    await transaction(db, async (trx) => {
      await readsOnly(trx, {});
      await insertNote(trx, { id: 2 });
    });
    expect((await sql<{ id: number }>`select id from notes`.execute(db)).rows).toEqual([{ id: 2 }]);
  });

  it('an empty transaction still sends its BEGIN, then its COMMIT', async () => {
    const { db } = await open();
    const before = proxy.flights();
    await transaction(db, async () => undefined);
    expect(proxy.flights() - before).toBe(2);
    expect((await readsOnly(db, {})).rows).toHaveLength(1);
  });
});
