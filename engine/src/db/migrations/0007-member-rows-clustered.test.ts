import { sql, type Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEmbeddedEngine } from '../../ledger/create-embedded-engine.js';
import { ANN, IDS, line, sale } from '../../testing/fixture.js';
import { migrate, type SqlDatabase } from '@loyalty-gateway/storage';
import type { EngineTables } from '../schema.js';
import { openTestDatabase, testDialects } from '@loyalty-gateway/storage/testing';
import { engineMigrations } from './index.js';
import { insertMerchantAndMember } from '../../testing/older-rows.js';

const NOW = '2026-01-01T00:00:00.000Z';
const before0007 = {
  table: engineMigrations.table,
  migrations: Object.fromEntries(Object.entries(engineMigrations.migrations).filter(([name]) => name < '0007')),
};

/** A member with a wallet and a stamp card, as the migrations before 0007 store them. */
async function seedMember(db: Kysely<any>): Promise<void> {
  const merchant = { id: await insertMerchantAndMember(db, ANN.value, NOW) };
  await db.insertInto('wallets').values({ member_id: 'mem-1', balance: 250, lifetime_points: 900 }).execute();
  await db
    .insertInto('rewards')
    .values({
      id: IDS.stamp,
      merchant_id: merchant.id,
      position: 0,
      type: 'STAMP',
      title: 'Buy 5',
      points_cost: null,
      discount_minor: null,
      min_spend_minor: null,
      stamps_required: 5,
      min_points: null,
      match_skus: '[]',
      match_keywords: '["coffee"]',
    })
    .execute();
  await db
    .insertInto('stamp_cards')
    .values({ member_id: 'mem-1', reward_id: IDS.stamp, stamps_total: 12, cards_completed: 2, cards_redeemed: 1 })
    .execute();
}

describe.each(testDialects())('migration 0007 (member rows clustered) on $name', ({ name }) => {
  let database: SqlDatabase<EngineTables>;
  beforeEach(async () => {
    database = await openTestDatabase<EngineTables>(name);
  });
  afterEach(async () => {
    await database.close();
  });

  it('keeps every wallet and stamp card, their keys and references, and the engine reads and writes them', async () => {
    await migrate(database.db, before0007);
    await seedMember(database.db);
    expect(await migrate(database.db, engineMigrations)).toEqual(['0007_member_rows_clustered']);
    if (name === 'sqlite') {
      const { rows } = await sql<{
        name: string;
        sql: string;
      }>`select name, sql from sqlite_master where name in ('wallets', 'stamp_cards') order by name`.execute(database.db);
      expect(rows.map((r) => [r.name, /without rowid$/i.test(r.sql)])).toEqual([
        ['stamp_cards', true],
        ['wallets', true],
      ]);
      // The references hold: a wallet for no member is refused, as before.
      await expect(
        database.db.insertInto('wallets').values({ member_id: 'nobody', balance: 0, lifetime_points: 0 }).execute(),
      ).rejects.toThrow(/FOREIGN KEY/);
    }
    // The keys hold: a second wallet or card for the same member is refused.
    await expect(
      database.db.insertInto('wallets').values({ member_id: 'mem-1', balance: 0, lifetime_points: 0 }).execute(),
    ).rejects.toThrow();
    await expect(
      database.db
        .insertInto('stamp_cards')
        .values({ member_id: 'mem-1', reward_id: IDS.stamp, stamps_total: 0, cards_completed: 0, cards_redeemed: 0 })
        .execute(),
    ).rejects.toThrow();
    const wallet = await database.db.selectFrom('wallets').selectAll().executeTakeFirstOrThrow();
    expect([Number(wallet.balance), Number(wallet.lifetime_points)]).toEqual([250, 900]);
    const card = await database.db.selectFrom('stamp_cards').selectAll().executeTakeFirstOrThrow();
    expect([Number(card.stamps_total), Number(card.cards_completed), Number(card.cards_redeemed)]).toEqual([12, 2, 1]);

    const engine = await createEmbeddedEngine({ database });
    try {
      const outcome = await engine.earn(sale({ totalMinor: 1000, items: [line('Coffee', 3)] }));
      expect(outcome).toMatchObject({ status: 'processed', pointsEarned: 10 });
      const after = await database.db.selectFrom('wallets').select('balance').executeTakeFirstOrThrow();
      expect(Number(after.balance)).toBe(260);
      const stamps = await database.db.selectFrom('stamp_cards').select(['stamps_total', 'cards_completed']).executeTakeFirstOrThrow();
      expect([Number(stamps.stamps_total), Number(stamps.cards_completed)]).toEqual([15, 3]);
      // Migrating again does nothing.
      expect(await migrate(database.db, engineMigrations)).toEqual([]);
    } finally {
      await engine.close();
    }
  });
});
