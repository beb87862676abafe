import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IDS } from '../../testing/fixture.js';
import { migrate, type SqlDatabase } from '@loyalty-gateway/storage';
import { openTestDatabase, testDialects } from '@loyalty-gateway/storage/testing';
import { engineMigrationsThrough, insertWalletAndCard } from '../../testing/older-rows.js';

const NOW = '2026-01-01T00:00:00.000Z';
const before0007 = engineMigrationsThrough('0006_refund_withdrawal');
const through0007 = engineMigrationsThrough('0007_member_rows_clustered');

describe.each(testDialects())('migration 0007 (member rows clustered) on $name', ({ name }) => {
  // The tables as 0007 left them (migration 0008 then moved their rows to `balances`).
  let database: SqlDatabase<any>;
  beforeEach(async () => {
    database = await openTestDatabase<any>(name);
  });
  afterEach(async () => {
    await database.close();
  });

  it('keeps every wallet and stamp card, their keys and references', async () => {
    await migrate(database.db, before0007);
    await insertWalletAndCard(database.db, NOW);
    expect(await migrate(database.db, through0007)).toEqual(['0007_member_rows_clustered']);
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

    // Migrating again does nothing.
    expect(await migrate(database.db, through0007)).toEqual([]);
  });
});
