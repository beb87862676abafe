import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CustomerIdentifier, EarnCommand, EarnOutcome } from '@loyalty-gateway/core';
import fc from 'fast-check';
import { sql } from 'kysely';
import pg from 'pg';
import { createDatabase, migrate, type SqlDatabase } from '@loyalty-gateway/storage';
import { openTestDatabase, testDatabaseOptions, testDialects } from '@loyalty-gateway/storage/testing';
import type { EngineTables } from '../db/schema.js';
import { engineMigrations } from '../db/migrations/index.js';
import { ANN, BOB, IDS, SCOPE, balanceOf, ledgerSum, line, sale, testSeed } from '../testing/fixture.js';
import { holdWallet } from '../testing/slow-statements.js';
import type { Tx } from './context.js';
import { createEmbeddedEngine, type EmbeddedEngine, type EngineNotice } from './create-embedded-engine.js';
import { TransactionBatcher } from './transaction-batcher.js';

const onPostgres = testDialects().some((d) => d.name === 'postgres');

/**
 * The statements sent to PostgreSQL while `counting`: pg's Client.query, patched before any
 * connection of this file exists (the storage binds each connection's query when it connects).
 */
const statements = { counting: false, sent: [] as string[] };
const clientQuery = pg.Client.prototype.query as (...args: unknown[]) => unknown;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  if (statements.counting) {
    const first = args[0] as string | { text: string };
    statements.sent.push(typeof first === 'string' ? first : first.text);
  }
  return clientQuery.apply(this, args);
} as typeof pg.Client.prototype.query;

/** Two engines on one PostgreSQL database, as two gateway processes run (scale-out). */
describe.runIf(onPostgres)('group commit across two engines on postgres', () => {
  let databases: SqlDatabase<EngineTables>[];
  let engines: EmbeddedEngine[];
  let dispose: () => Promise<void>;
  beforeEach(async () => {
    const opened = await testDatabaseOptions('postgres');
    dispose = opened.dispose;
    databases = [createDatabase<EngineTables>(opened.options), createDatabase<EngineTables>(opened.options)];
    await migrate(databases[0]!.db, engineMigrations);
    engines = [];
    for (const database of databases) engines.push(await createEmbeddedEngine({ database }));
    await engines[0]!.applySeed(testSeed());
  });
  afterEach(async () => {
    for (const engine of engines) await engine.close();
    for (const database of databases) await database.close();
    await dispose();
  });

  it('copies of one sale sent in waves to both engines (many batches): one sale row, one ledger entry, one credit, one stamp', async () => {
    const command = sale({ totalMinor: 4200, items: [line('Coffee', 2)] });
    const waves = [];
    for (let wave = 0; wave < 4; wave++) {
      waves.push(
        ...Array.from({ length: 10 }, (_, i) => engines[i % 2]!.earn({ ...command, eventId: `e-${wave}-${i}` }).then((r) => r.status)),
      );
      await sleep(5);
    }
    const statuses = await Promise.all(waves);
    expect(statuses.filter((s) => s === 'processed')).toHaveLength(1);
    expect(statuses.filter((s) => s === 'duplicate')).toHaveLength(39);
    const db = databases[0]!.db;
    expect(await db.selectFrom('sales').select('id').where('transaction_id', '=', command.transaction.id).execute()).toHaveLength(1);
    expect(await db.selectFrom('ledger_entries').select('id').where('kind', '=', 'earn').execute()).toHaveLength(1);
    expect(await balanceOf(db, 'MBR-0001')).toBe(1242);
    expect(await ledgerSum(db, 'MBR-0001')).toBe(1242);
    const card = await db.selectFrom('balances').select('stamps_total').where('reward_id', '=', IDS.stamp).executeTakeFirstOrThrow();
    expect(Number(card.stamps_total)).toBe(2);
  });

  it('failing sales among sales and their copies on both engines: the failing ones leave nothing, every other sale credited once', async () => {
    // A failing unit rolls its whole batch back (batches run without savepoints until one fails):
    // the others run again, and the unique key still decides each copy.
    await sql`create function boom() returns trigger language plpgsql as $$ begin raise exception 'forced failure'; end $$`.execute(
      databases[0]!.db,
    );
    await sql`create trigger boom before insert on sales for each row when (new.transaction_id like 'tx-boom-%') execute function boom()`.execute(
      databases[0]!.db,
    );
    const commands = Array.from({ length: 48 }, (_, i) =>
      sale({ ...(i % 8 === 3 ? { id: `tx-boom-${i}` } : {}), totalMinor: 100 * (1 + (i % 4)), customer: BOB }),
    );
    const sent = [];
    for (const [i, command] of commands.entries()) {
      sent.push(
        engines[i % 2]!.earn(command).then(
          (r) => r.status,
          () => 'failed',
        ),
      );
      sent.push(
        engines[(i + 1) % 2]!.earn({ ...command, eventId: `copy-${i}` }).then(
          (r) => r.status,
          () => 'failed',
        ),
      );
      if (i % 12 === 11) await sleep(2);
    }
    const statuses = await Promise.all(sent);
    commands.forEach((command, i) => {
      const pair = statuses.slice(2 * i, 2 * i + 2).sort();
      expect(pair, command.transaction.id).toEqual(
        command.transaction.id.startsWith('tx-boom-') ? ['failed', 'failed'] : ['duplicate', 'processed'],
      );
    });
    const good = commands.filter((c) => !c.transaction.id.startsWith('tx-boom-'));
    const db = databases[0]!.db;
    const expected = good.reduce((sum, c) => sum + c.transaction.totalMinor / 100, 0);
    expect(await balanceOf(db, 'MBR-0002')).toBe(expected);
    expect(await ledgerSum(db, 'MBR-0002')).toBe(expected);
    expect(await db.selectFrom('sales').select('id').execute()).toHaveLength(good.length);
  });

  it('many sales of two members on both engines at once: every one credited exactly once', async () => {
    const commands = Array.from({ length: 60 }, (_, i) => sale({ totalMinor: 100 * (1 + (i % 3)), customer: i % 2 ? BOB : undefined }));
    for (const c of commands) if (c.transaction.customer === undefined) delete c.transaction.customer;
    const again = commands.slice(0, 20);
    const results = await Promise.all([...commands, ...again].map((c, i) => engines[i % 2]!.earn(c)));
    expect(results.slice(0, 60).every((r) => r.status === 'processed')).toBe(true);
    expect(results.slice(60).every((r) => r.status === 'duplicate')).toBe(true);
    const bob = commands.filter((c) => c.transaction.customer).reduce((sum, c) => sum + c.transaction.totalMinor / 100, 0);
    const db = databases[0]!.db;
    expect(await balanceOf(db, 'MBR-0002')).toBe(bob);
    expect(await ledgerSum(db, 'MBR-0002')).toBe(bob);
    expect(await db.selectFrom('sales').select('id').execute()).toHaveLength(60);
  });
  it('copies of one redemption sent in waves to both engines: deducted once, every other copy replays it', async () => {
    // Within a batch the debit sees the key held by an earlier unit and writes nothing; across the
    // two engines the insert waits for the other's commit and finds the key taken (the unit is
    // rolled back with its batch). Either way the copy replays the redemption that holds the key.
    const command = { ...SCOPE, customer: ANN, externalTransactionId: 'order-waves', pointsToRedeem: 100 };
    const waves = [];
    for (let wave = 0; wave < 4; wave++) {
      waves.push(...Array.from({ length: 10 }, (_, i) => engines[i % 2]!.redeem(command)));
      await sleep(5);
    }
    const results = await Promise.all(waves);
    expect(results.filter((r) => r.status === 'REDEEMED')).toHaveLength(1);
    expect(results.filter((r) => r.status === 'ALREADY_PROCESSED')).toHaveLength(39);
    expect(new Set(results.map((r) => r.redemptionId)).size).toBe(1);
    expect(results.every((r) => r.walletBalance === 1100 && r.pointsDeducted === 100)).toBe(true);
    const db = databases[0]!.db;
    expect(await db.selectFrom('redemptions').select('id').execute()).toHaveLength(1);
    expect(await balanceOf(db, 'MBR-0001')).toBe(1100);
    expect(await ledgerSum(db, 'MBR-0001')).toBe(1100);
  });

  it("redemptions over the member's budget on both engines, with earns of the same member: never below zero, every point in the ledger", async () => {
    const redemptions = Array.from({ length: 24 }, (_, i) =>
      engines[i % 2]!.redeem({ ...SCOPE, customer: ANN, externalTransactionId: `over-${i}`, pointsToRedeem: 100 }).then(
        (r) => r.status,
        (error: { code?: string }) => error.code,
      ),
    );
    const earns = Array.from({ length: 10 }, (_, i) => engines[i % 2]!.earn(sale({ totalMinor: 5000 })));
    const [statuses, earned] = await Promise.all([Promise.all(redemptions), Promise.all(earns)]);
    expect(earned.every((r) => r.status === 'processed')).toBe(true);
    const redeemed = statuses.filter((s) => s === 'REDEEMED').length;
    expect(statuses.filter((s) => s !== 'REDEEMED').every((s) => s === 'insufficient_points')).toBe(true);
    expect(redeemed).toBeGreaterThanOrEqual(12);
    const db = databases[0]!.db;
    const expected = 1200 + earned.reduce((sum, r) => sum + r.pointsEarned, 0) - 100 * redeemed;
    expect(expected).toBeGreaterThanOrEqual(0);
    expect(await balanceOf(db, 'MBR-0001')).toBe(expected);
    expect(await ledgerSum(db, 'MBR-0001')).toBe(expected);
    expect(await db.selectFrom('redemptions').select('id').execute()).toHaveLength(redeemed);
  });
});

describe.runIf(onPostgres)('group commit on postgres', () => {
  let database: SqlDatabase<EngineTables>;
  let engine: EmbeddedEngine;
  beforeEach(async () => {
    database = await openTestDatabase<EngineTables>('postgres', engineMigrations);
    engine = await createEmbeddedEngine({ database });
    await engine.applySeed(testSeed());
  });
  afterEach(async () => {
    await engine.close();
    await database.close();
  });

  it('earns arriving together share transactions (one commit for several sales), each still all or nothing', async () => {
    // Each row records the top-level transaction that wrote it (a savepoint's rows carry their
    // subtransaction's xmin; txid_current() names the enclosing transaction).
    await sql`alter table sales add column written_by bigint default txid_current()`.execute(database.db);
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => engine.earn(sale({ totalMinor: 100 + i }))));
    expect(results.every((r) => r.status === 'processed')).toBe(true);
    const { rows } = await sql<{ sales: number; transactions: number }>`
      select count(*)::int as sales, count(distinct written_by)::int as transactions from sales`.execute(database.db);
    expect(rows[0]!.sales).toBe(40);
    expect(rows[0]!.transactions).toBeLessThan(20);
    const expected = 1200 + results.reduce((sum, r) => sum + r.pointsEarned, 0);
    expect(await balanceOf(database.db, 'MBR-0001')).toBe(expected);
    expect(await ledgerSum(database.db, 'MBR-0001')).toBe(expected);
  });

  it('redemptions arriving together share transactions with each other, as earns do', async () => {
    await sql`alter table redemptions add column written_by bigint default txid_current()`.execute(database.db);
    // "Together": while the lane's batch waits (another transaction holds the member's wallet), as
    // under load. Left to arrive as their lookups finished, they formed 5 to 15 transactions on an
    // idle machine and 17 in a loaded CI run: a bound on that count measured the pool's timing.
    const { released } = await holdWallet(database.db, 'MBR-0001', 500);
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        engine.redeem({
          ...SCOPE,
          customer: i % 2 ? ANN : { type: 'phone', value: '+15550100001' },
          externalTransactionId: `o-${i}`,
          pointsToRedeem: 10,
        }),
      ),
    );
    await released;
    expect(results.every((r) => r.status === 'REDEEMED')).toBe(true);
    const { rows } = await sql<{ redemptions: number; transactions: number }>`
      select count(*)::int as redemptions, count(distinct written_by)::int as transactions from redemptions`.execute(database.db);
    expect(rows[0]!.redemptions).toBe(30);
    // Held, the first batch's and then the waiting redemptions' (3 in eight runs on an idle machine).
    expect(rows[0]!.transactions).toBeLessThanOrEqual(5);
    expect(await balanceOf(database.db, 'MBR-0001')).toBe(900);
    expect(await ledgerSum(database.db, 'MBR-0001')).toBe(900);
    // Each answer's balance is the wallet's right after that redemption: 30 distinct figures.
    expect(new Set(results.map((r) => r.walletBalance)).size).toBe(30);
  });

  it('a key taken by another transaction while a redemption waits in its batch: the debit is rolled back and the holder replayed', async () => {
    const command = { ...SCOPE, customer: ANN, externalTransactionId: 'order-elsewhere', pointsToRedeem: 100 };
    await engine.redeem({ ...command, externalTransactionId: 'warm-up', pointsToRedeem: 1 }); // prepared statements, settings cache
    const ann = await database.db.selectFrom('members').select('id').where('membership_id', '=', 'MBR-0001').executeTakeFirstOrThrow();
    let answer: Promise<unknown> | undefined;
    // Another process's redemption of the same order, uncommitted: the engine's debit does not see
    // it, its insert waits for it, then finds the key taken once it commits.
    await database.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('redemptions')
        .values({
          id: 'r-elsewhere',
          merchant_id: SCOPE.merchantId,
          outlet_id: SCOPE.outletId,
          source_vendor: SCOPE.source.vendor,
          source_store_id: SCOPE.source.storeId,
          external_transaction_id: command.externalTransactionId,
          reward_key: 'points',
          member_id: ann.id,
          reward_id: null,
          points_requested: 100,
          order_value_minor: null,
          points_deducted: 100,
          balance_after: 1099,
          instance_id: null,
          status: 'committed',
          created_at: new Date().toISOString(),
        })
        .execute();
      answer = engine.redeem(command);
      await sleep(200);
    });
    await expect(answer).resolves.toMatchObject({ status: 'ALREADY_PROCESSED', redemptionId: 'r-elsewhere', walletBalance: 1099 });
    expect(await balanceOf(database.db, 'MBR-0001')).toBe(1199); // the warm-up's point only: the engine's debit was rolled back
    expect(await database.db.selectFrom('redemptions').select('id').execute()).toHaveLength(2);
  });

  it("a batch's earns take their sale locks and member lookups in one statement, and record their sales in one more", async () => {
    await engine.earn(sale({ totalMinor: 100 })); // the settings cache and the prepared statements, warm
    statements.sent = [];
    statements.counting = true;
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => engine.earn(sale({ totalMinor: 100 * (i + 1), customer: i % 2 ? BOB : ANN }))),
    ).finally(() => (statements.counting = false));
    expect(results.every((r) => r.status === 'processed')).toBe(true);
    // The two members' earns meet in one batch or two (one per lane their keys hash to): BEGIN,
    // the opening statement, the closing statement (every sale of the batch), COMMIT.
    const { sent } = statements;
    const openings = sent.filter((text) => text.includes('pg_advisory_xact_lock') && text.includes('jsonb_to_recordset')).length;
    const closings = sent.filter((text) => text.includes('insert into sales') && text.includes('jsonb_to_recordset')).length;
    expect([1, 2]).toContain(openings);
    expect(closings).toBe(openings);
    expect(sent).toHaveLength(4 * openings);
    expect(await balanceOf(database.db, 'MBR-0001')).toBe(1200 + 1 + (1 + 3 + 5 + 7 + 9 + 11));
    expect(await balanceOf(database.db, 'MBR-0002')).toBe(2 + 4 + 6 + 8 + 10 + 12);
  });

  it("the batch's opening statement resolves every kind of customer as an earn alone does", async () => {
    await engine.earn(sale({ totalMinor: 100 })); // warm: the next earns arrive together
    const customers: (CustomerIdentifier | undefined)[] = [
      { type: 'phone', value: '+15550100001' },
      { type: 'email', value: 'bob@example.com' },
      { type: 'externalId', value: 'crm-1' },
      ANN,
      { type: 'membershipId', value: 'MBR-9999' },
      { type: 'phone', value: 'not a phone' },
      { type: 'email', value: 'nobody@example.com' },
      undefined,
    ];
    const earnFor = (customer: CustomerIdentifier | undefined) => {
      const command = sale({ totalMinor: 500, customer });
      if (!customer) delete command.transaction.customer;
      return engine.earn(command);
    };
    statements.sent = [];
    statements.counting = true;
    const together = await Promise.all(customers.map(earnFor)).finally(() => (statements.counting = false));
    expect(statements.sent.filter((text) => text.includes('jsonb_to_recordset')).length).toBeGreaterThan(0);
    const alone = [];
    for (const customer of customers) alone.push(await earnFor(customer));
    const view = (r: EarnOutcome) => [r.status, r.membershipId, r.pointsEarned, r.warning];
    expect(together.map(view)).toEqual(alone.map(view));
    expect(together.map((r) => r.membershipId)).toEqual(['MBR-0001', 'MBR-0002', 'MBR-0001', 'MBR-0001', '', '', '', '']);
  });

  it('a batch runs without savepoints until a unit fails, then the next batches with one per unit', async () => {
    // A row written inside a savepoint carries its subtransaction's id as xmin; without savepoints
    // every row of a batch carries the batch's one transaction id.
    const batcher = new TransactionBatcher(database.db, 'postgres');
    const put =
      (key: string, fail = false) =>
      async (trx: Tx) => {
        await trx.insertInto('engine_settings').values({ key, value: 'x' }).execute();
        if (fail) throw new Error('refused');
      };
    const writers = async (prefix: string) =>
      (
        await sql<{
          writers: number;
        }>`select count(distinct xmin::text)::int as writers from engine_settings where key like ${`${prefix}-%`}`.execute(database.db)
      ).rows[0]!.writers;
    await Promise.all([1, 2, 3, 4].map((i) => batcher.run(put(`plain-${i}`))));
    expect(await writers('plain')).toBe(1);
    await Promise.allSettled([1, 2, 3, 4].map((i) => batcher.run(put(`mixed-${i}`, i === 2))));
    await Promise.all([1, 2, 3, 4].map((i) => batcher.run(put(`after-${i}`))));
    expect(await writers('after')).toBe(4);
  });

  it('a batch without savepoints takes up to 128 units; with savepoints (subtransactions) up to 32', async () => {
    const sizes: number[] = [];
    const batcher = new TransactionBatcher(database.db, 'postgres', undefined, async (_trx, inputs) => {
      sizes.push(inputs.length);
      return inputs;
    });
    const transactions = new Map<string, number>();
    const unit =
      (fail = false) =>
      async (trx: Tx) => {
        const { rows } = await sql<{ txid: string }>`select txid_current()::text as txid`.execute(trx);
        transactions.set(rows[0]!.txid, (transactions.get(rows[0]!.txid) ?? 0) + 1);
        if (fail) throw new Error('refused');
      };
    await Promise.all(Array.from({ length: 150 }, (_, i) => batcher.run(unit(), undefined, `k${i}`, i)));
    expect(sizes).toEqual([128, 22]);
    expect([...transactions.values()]).toEqual([128, 22]);
    // A unit fails: the next batches run with a savepoint per unit, at most 32 of them each.
    await Promise.allSettled([1, 2, 3].map((i) => batcher.run(unit(i === 2), undefined, `f${i}`, i)));
    transactions.clear();
    await Promise.all(Array.from({ length: 70 }, (_, i) => batcher.run(unit(), undefined, `s${i}`, i)));
    expect([...transactions.values()]).toEqual([32, 32, 6]);
  });

  it('a unit picked as a deadlock victim is rolled back alone and run again; every unit commits', async () => {
    // Two batches on two connections lock two rows in opposite orders (keys that do not name
    // what they lock, as a member named by two identifiers would): PostgreSQL breaks the cycle.
    await database.db
      .insertInto('engine_settings')
      .values([
        { key: 'row-1', value: '' },
        { key: 'row-2', value: '' },
      ])
      .execute();
    const touch = (row: string, mark: string, pause: number) => async (trx: Tx) => {
      await sql`update engine_settings set value = value || ${mark} where key = ${row}`.execute(trx);
      await sleep(pause);
      return mark;
    };
    const a = new TransactionBatcher(database.db, 'postgres');
    const b = new TransactionBatcher(database.db, 'postgres');
    const results = await Promise.allSettled([
      a.run(touch('row-1', 'a1', 150), undefined, 'k1'),
      a.run(touch('row-2', 'a2', 0), undefined, 'k2'),
      b.run(touch('row-2', 'b1', 150), undefined, 'k1'),
      b.run(touch('row-1', 'b2', 0), undefined, 'k2'),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'fulfilled']);
    const rows = await database.db
      .selectFrom('engine_settings')
      .select(['key', 'value'])
      .where('key', 'like', 'row-%')
      .orderBy('key')
      .execute();
    expect(rows.map((r) => [r.key, [...r.value.matchAll(/[ab]\d/g)].map((m) => m[0]).sort()])).toEqual([
      ['row-1', ['a1', 'b2']],
      ['row-2', ['a2', 'b1']],
    ]);
  });

  it('a batch whose connection is lost under a unit answers every unit with the error and runs none again', async () => {
    const batcher = new TransactionBatcher(database.db, 'postgres');
    let runs = 0;
    const put = (key: string) => async (trx: Tx) => {
      await trx.insertInto('engine_settings').values({ key, value: 'x' }).execute();
    };
    const results = await Promise.allSettled([
      batcher.run(put('lost-1'), undefined, 'k1'),
      batcher.run(
        async (trx) => {
          runs++;
          await sql`select pg_terminate_backend(pg_backend_pid())`.execute(trx);
        },
        undefined,
        'k2',
      ),
      batcher.run(put('lost-3'), undefined, 'k3'),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(runs).toBe(1);
    expect(await database.db.selectFrom('engine_settings').select('key').where('key', 'like', 'lost-%').execute()).toEqual([]);
  });
});

/**
 * The batch's closing statement (earn-postgres.ts recordSales) records every new sale of a batch
 * in one statement: each sale must be answered, and leave the ledger, as if the batch's sales had
 * run one after the other.
 */
describe.runIf(onPostgres)("a group-commit batch's sales recorded in one statement on postgres", () => {
  type Opened = { database: SqlDatabase<EngineTables>; engine: EmbeddedEngine; notices: EngineNotice[] };
  let opened: Opened[] = [];
  const open = async (): Promise<Opened> => {
    const database = await openTestDatabase<EngineTables>('postgres', engineMigrations);
    const notices: EngineNotice[] = [];
    const engine = await createEmbeddedEngine({ database, onNotice: (notice) => notices.push(notice) });
    await engine.applySeed(testSeed());
    const one = { database, engine, notices };
    opened.push(one);
    return one;
  };
  afterEach(async () => {
    for (const { engine, database } of opened) {
      await engine.close();
      await database.close();
    }
    opened = [];
  });

  /** What an answer says, without the conflict's time of first receipt (each database has its own). */
  const view = (r: EarnOutcome) => ({ ...r, conflict: r.conflict === undefined ? undefined : 'conflict' });

  const ledgerState = async (db: Opened['database']['db']) => ({
    ann: [await balanceOf(db, 'MBR-0001'), await ledgerSum(db, 'MBR-0001')],
    bob: [await balanceOf(db, 'MBR-0002'), await ledgerSum(db, 'MBR-0002')],
    cards: (
      await db
        .selectFrom('balances')
        .innerJoin('members', 'members.id', 'balances.member_id')
        .select(['members.membership_id', 'balances.stamps_total', 'balances.cards_completed'])
        .where('balances.reward_id', '=', IDS.stamp)
        .orderBy('members.membership_id')
        .execute()
    ).map((c) => [c.membership_id, Number(c.stamps_total), Number(c.cards_completed)]),
    sales: (
      await db.selectFrom('sales').select(['transaction_id', 'points_earned', 'points_reversed']).orderBy('transaction_id').execute()
    ).map((s) => [s.transaction_id, Number(s.points_earned), Number(s.points_reversed)]),
    codes: await db.selectFrom('reward_instances').select(['code', 'status', 'used_transaction_id']).orderBy('code').execute(),
  });

  it('every kind of sale answers, and leaves the ledger, as the same sales one after the other', async () => {
    const latte = (quantity: number) => line('Latte', quantity, { sku: 'COF-LATTE' });
    const refundedFirst = sale({ id: 'tx-refunded-first', totalMinor: 3000, items: [latte(1)] });
    const first = sale({ id: 'tx-first', totalMinor: 1250, items: [latte(2)] });
    const bobs = sale({ id: 'tx-bob', totalMinor: 900, customer: BOB, items: [latte(3)] });
    const walkIn = sale({ id: 'tx-walk-in', totalMinor: 700 });
    delete walkIn.transaction.customer;
    const commands = [
      first,
      bobs,
      sale({ id: 'tx-coffee-code', totalMinor: 2000, items: [line('Coffee', 4)], discountCodes: [{ code: 'LOYAL-7QX2' }] }),
      { ...first, eventId: 'copy' }, // the same sale again, in the same batch: a duplicate
      { ...bobs, eventId: 'changed', transaction: { ...bobs.transaction, totalMinor: 901 } }, // another sale under its key: a conflict
      refundedFirst, // its refund arrived before it: the points go back at once
      walkIn,
      sale({ id: 'tx-euro', currency: 'EUR', items: [latte(1)] }), // another currency: nothing earned
      sale({ id: 'tx-unknown', customer: { type: 'membershipId', value: 'MBR-9999' } }),
      sale({ id: 'tx-completes', totalMinor: 500, items: [latte(5)] }), // completes a card
      sale({ id: 'tx-bob-2', totalMinor: 1500, customer: BOB, items: [latte(2)] }),
      sale({ id: 'tx-no-points', totalMinor: 50, items: [latte(1)] }), // stamps only
    ];
    const batched = await open();
    const alone = await open();
    for (const { engine } of [batched, alone]) {
      await engine.reverse({ ...SCOPE, transactionId: refundedFirst.transaction.id, refundId: 'r-early' });
      // The settings and catalog caches, warm: every earn below reaches the batcher in one tick.
      await engine.earn(sale({ id: 'tx-warm', totalMinor: 100, items: [latte(1)] }));
    }
    statements.sent = [];
    statements.counting = true;
    const together = await Promise.all(commands.map((c) => batched.engine.earn(c))).finally(() => (statements.counting = false));
    const closings = statements.sent.filter((text) => text.includes('insert into sales') && text.includes('jsonb_to_recordset')).length;
    expect(closings).toBeGreaterThan(0);
    expect(closings).toBeLessThanOrEqual(2); // one per lane the two members' keys hash to
    // No sale recorded alone (its own insert into sales): every one went through a closing statement.
    expect(statements.sent.filter((text) => text.includes('insert into sales') && !text.includes('jsonb_to_recordset'))).toEqual([]);
    const oneByOne: EarnOutcome[] = [];
    for (const command of commands) oneByOne.push(await alone.engine.earn(command));
    expect(together.map(view)).toEqual(oneByOne.map(view));
    expect(together.map((r) => r.status)).toEqual([
      'processed',
      'processed',
      'processed',
      'duplicate',
      'duplicate',
      'processed',
      'processed',
      'processed',
      'processed',
      'processed',
      'processed',
      'processed',
    ]);
    expect(together[4]!.conflict).toBeDefined();
    expect(together[9]!.stampsUpdated).toEqual([expect.objectContaining({ completed: true })]);
    expect(await ledgerState(batched.database.db)).toEqual(await ledgerState(alone.database.db));
    expect(batched.notices).toEqual([]);
  });

  it('random batches of sales (fast-check): each answers, and the ledger ends, as the same sales one after the other', async () => {
    const batched = await open();
    const alone = await open();
    const latte = (quantity: number) => line('Latte', quantity, { sku: 'COF-LATTE' });
    for (const { engine } of [batched, alone]) await engine.earn(sale({ id: 'tx-warm', totalMinor: 100, items: [latte(1)] }));
    // One identifier per member: a batch runs its sales in the order of their keys (the customer
    // identifier), so two sales of one member named by two identifiers may run in the other order
    // than they were sent (both orders are right for sales sent together; the totals are the same).
    const people: (CustomerIdentifier | undefined)[] = [ANN, BOB, undefined, { type: 'membershipId', value: 'MBR-9999' }];
    const saleShape = fc.record({
      customer: fc.integer({ min: 0, max: people.length - 1 }),
      lattes: fc.integer({ min: 0, max: 7 }),
      totalMinor: fc.integer({ min: 0, max: 5_000 }),
      euro: fc.boolean(),
      copyOf: fc.option(fc.nat(), { nil: undefined }), // a copy of an earlier sale of this batch
      changed: fc.boolean(), // the copy with another total: a conflict
      refundedFirst: fc.boolean(),
    });
    let run = 0;
    let closings = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(saleShape, { minLength: 2, maxLength: 24 }), async (shapes) => {
        run++;
        const commands: EarnCommand[] = [];
        const refunds: string[] = [];
        for (const [i, shape] of shapes.entries()) {
          const original = shape.copyOf === undefined || commands.length === 0 ? undefined : commands[shape.copyOf % commands.length]!;
          if (original) {
            // A vendor's retry: same sale key and customer, a new event id, maybe another total.
            const { transaction } = original;
            commands.push({
              ...original,
              eventId: `copy-${run}-${i}`,
              transaction: { ...transaction, totalMinor: transaction.totalMinor + (shape.changed ? 1 : 0) },
            });
            continue;
          }
          const command = sale({
            id: `tx-${run}-${i}`,
            totalMinor: shape.totalMinor,
            currency: shape.euro ? 'EUR' : 'USD',
            customer: people[shape.customer],
            items: shape.lattes > 0 ? [latte(shape.lattes)] : [],
          });
          if (command.transaction.customer === undefined) delete command.transaction.customer;
          if (shape.refundedFirst) refunds.push(command.transaction.id);
          commands.push(command);
        }
        for (const { engine } of [batched, alone]) {
          for (const id of refunds) await engine.reverse({ ...SCOPE, transactionId: id, refundId: `r-${id}`, amountMinor: 100 });
        }
        statements.sent = [];
        statements.counting = true;
        const together = await Promise.all(commands.map((c) => batched.engine.earn(c))).finally(() => (statements.counting = false));
        closings += statements.sent.filter((text) => text.includes('insert into sales') && text.includes('jsonb_to_recordset')).length;
        const oneByOne: EarnOutcome[] = [];
        for (const command of commands) oneByOne.push(await alone.engine.earn(command));
        expect(together.map(view)).toEqual(oneByOne.map(view));
        expect(await ledgerState(batched.database.db)).toEqual(await ledgerState(alone.database.db));
      }),
      { numRuns: 25 },
    );
    expect(closings).toBeGreaterThan(0);
    expect(batched.notices).toEqual([]);
  });

  it('a stamp card passing its limit in a batch: that sale alone is refused, the batch runs again one sale at a time', async () => {
    const { engine, database, notices } = await open();
    await engine.earn(sale({ items: [line('Coffee', Number.MAX_SAFE_INTEGER - 10)] }));
    const commands = [
      sale({ id: 'tx-fits-1', items: [line('Coffee', 1)] }),
      sale({ id: 'tx-too-many', items: [line('Coffee', 20)] }),
      sale({ id: 'tx-fits-2', items: [line('Coffee', 2)] }),
      sale({ id: 'tx-bob', customer: BOB, items: [line('Coffee', 3)] }),
    ];
    const results = await Promise.allSettled(commands.map((c) => engine.earn(c)));
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value.status : (r.reason as { code?: string }).code))).toEqual([
      'processed',
      'validation_failed',
      'processed',
      'processed',
    ]);
    expect(notices).toEqual([expect.objectContaining({ event: 'batch-closing-failed', error: expect.stringContaining('would pass') })]);
    const state = await ledgerState(database.db);
    expect(state.cards).toEqual([
      ['MBR-0001', Number.MAX_SAFE_INTEGER - 7, Math.floor((Number.MAX_SAFE_INTEGER - 7) / 5)],
      ['MBR-0002', 3, 0],
    ]);
    expect(state.sales.map(([id]) => id)).not.toContain('tx-too-many');
  });
});
