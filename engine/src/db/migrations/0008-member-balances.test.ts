import { sql, type Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEmbeddedEngine } from '../../ledger/create-embedded-engine.js';
import { ANN, IDS, SCOPE, line, sale } from '../../testing/fixture.js';
import { migrate, type SqlDatabase } from '@loyalty-gateway/storage';
import type { EngineTables } from '../schema.js';
import { openTestDatabase, testDialects } from '@loyalty-gateway/storage/testing';
import { engineMigrations } from './index.js';
import { engineMigrationsThrough, insertWalletAndCard } from '../../testing/older-rows.js';

const NOW = '2026-01-01T00:00:00.000Z';
const before0008 = engineMigrationsThrough('0007_member_rows_clustered');
const MEMBER_2 = { type: 'membershipId', value: 'MBR-0002' } as const;

/** Every row of `balances` as [member, reward, balance, lifetime, stamps, completed, redeemed], in key order. */
async function balanceRows(db: Kysely<EngineTables>): Promise<(string | number)[][]> {
  const rows = await db.selectFrom('balances').selectAll().orderBy('member_id').orderBy('reward_id').execute();
  return rows.map((r) => [
    r.member_id,
    r.reward_id,
    ...[r.balance, r.lifetime_points, r.stamps_total, r.cards_completed, r.cards_redeemed].map(Number),
  ]);
}

describe.each(testDialects())('migration 0008 (member balances) on $name', ({ name }) => {
  let database: SqlDatabase<EngineTables>;
  beforeEach(async () => {
    database = await openTestDatabase<EngineTables>(name);
    await migrate(database.db, before0008);
    // mem-1: a wallet and a stamp card; mem-2: a wallet only.
    await insertWalletAndCard(database.db, NOW);
    const old = database.db as Kysely<any>;
    const { merchant_id } = await old.selectFrom('members').select('merchant_id').executeTakeFirstOrThrow();
    await old
      .insertInto('members')
      .values({ id: 'mem-2', merchant_id, membership_id: MEMBER_2.value, phone: null, email: null, external_id: null, created_at: NOW })
      .execute();
    await old.insertInto('wallets').values({ member_id: 'mem-2', balance: 40, lifetime_points: 40 }).execute();
    expect(await migrate(database.db, engineMigrations)).toEqual(['0008_member_balances']);
  });
  afterEach(async () => {
    await database.close();
  });

  it('moves every wallet and stamp card into balances, the wallet under the empty reward key, and drops the two tables', async () => {
    expect(await balanceRows(database.db)).toEqual([
      ['mem-1', '', 250, 900, 0, 0, 0],
      ['mem-1', IDS.stamp, 0, 0, 12, 2, 1],
      ['mem-2', '', 40, 40, 0, 0, 0],
    ]);
    const tables =
      name === 'sqlite'
        ? sql<{ name: string }>`select name from sqlite_master where type = 'table' and name in ('wallets', 'stamp_cards', 'balances')`
        : sql<{ name: string }>`select table_name as name from information_schema.tables
            where table_schema = current_schema() and table_name in ('wallets', 'stamp_cards', 'balances')`;
    expect((await tables.execute(database.db)).rows.map((r) => r.name)).toEqual(['balances']);
    if (name === 'sqlite') {
      // The rows in the key's B-tree: a member's wallet and cards share a leaf.
      const { rows } = await sql<{ sql: string }>`select sql from sqlite_master where name = 'balances'`.execute(database.db);
      expect(rows[0]!.sql).toMatch(/without rowid$/i);
    }
    // Migrating again does nothing.
    expect(await migrate(database.db, engineMigrations)).toEqual([]);
  });

  it('keeps the key, the member reference, and the kinds apart', async () => {
    const insert = (row: Partial<Record<string, unknown>>) =>
      database.db
        .insertInto('balances')
        .values({ member_id: 'mem-2', reward_id: IDS.stamp, ...row })
        .execute();
    // A second wallet for a member.
    await expect(insert({ reward_id: '', balance: 1 })).rejects.toThrow(/unique/i);
    // A wallet for no member.
    await expect(insert({ member_id: 'nobody', reward_id: '' })).rejects.toThrow(/foreign key/i);
    // Points on a card row; stamps on a wallet row.
    await expect(insert({ balance: 5 })).rejects.toThrow(/check/i);
    await expect(database.db.updateTable('balances').set({ stamps_total: 1 }).where('member_id', '=', 'mem-2').execute()).rejects.toThrow(
      /check/i,
    );
    await expect(
      database.db.updateTable('balances').set({ lifetime_points: 1 }).where('reward_id', '=', IDS.stamp).execute(),
    ).rejects.toThrow(/check/i);
    expect(await balanceRows(database.db)).toEqual([
      ['mem-1', '', 250, 900, 0, 0, 0],
      ['mem-1', IDS.stamp, 0, 0, 12, 2, 1],
      ['mem-2', '', 40, 40, 0, 0, 0],
    ]);
  });

  it('the engine earns, reads and redeems on the moved rows, the wallet and the card each on its own row', async () => {
    const engine = await createEmbeddedEngine({ database });
    try {
      expect(await engine.earn(sale({ totalMinor: 1000, items: [line('Coffee', 3)] }))).toMatchObject({
        status: 'processed',
        pointsEarned: 10,
        stampsUpdated: [{ rewardId: IDS.stamp, current: 0, required: 5, completed: true }],
      });
      // A member with no card yet: the card row is created beside the wallet.
      expect(await engine.earn(sale({ totalMinor: 500, customer: MEMBER_2, items: [line('Coffee', 2)] }))).toMatchObject({
        status: 'processed',
        pointsEarned: 5,
        stampsUpdated: [{ rewardId: IDS.stamp, current: 2, required: 5, completed: false }],
      });
      const stamp = (await engine.eligibility({ ...SCOPE, customer: ANN })).eligibleRewards.find((r) => r.rewardId === IDS.stamp);
      expect(stamp).toMatchObject({ eligible: true });
      expect(await engine.redeem({ ...SCOPE, customer: ANN, rewardId: IDS.stamp, externalTransactionId: 'order-1' })).toMatchObject({
        status: 'REDEEMED',
      });
      expect(await balanceRows(database.db)).toEqual([
        ['mem-1', '', 260, 910, 0, 0, 0],
        ['mem-1', IDS.stamp, 0, 0, 15, 3, 2],
        ['mem-2', '', 45, 45, 0, 0, 0],
        ['mem-2', IDS.stamp, 0, 0, 2, 0, 0],
      ]);
    } finally {
      await engine.close();
    }
  });
});
