import type { Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEmbeddedEngine } from '../../ledger/create-embedded-engine.js';
import { ANN, IDS, SCOPE } from '../../testing/fixture.js';
import { migrate, type SqlDatabase } from '@loyalty-gateway/storage';
import type { EngineTables } from '../schema.js';
import { openTestDatabase, testDialects } from '@loyalty-gateway/storage/testing';
import { engineMigrations } from './index.js';
import { engineMigrationsThrough, insertMerchantAndMember, stampRewardRow } from '../../testing/older-rows.js';

const NOW = '2026-01-01T00:00:00.000Z';

/** Stamp-card rewards as 0001 kept them: one reward_instances row per completed card. */
async function seedOldShape(db: Kysely<any>): Promise<void> {
  const merchant = { id: await insertMerchantAndMember(db, 'MBR-0001', NOW) };
  await db.insertInto('wallets').values({ member_id: 'mem-1', balance: 0, lifetime_points: 0 }).execute();
  await db
    .insertInto('rewards')
    .values([
      stampRewardRow(merchant.id),
      {
        id: IDS.discount,
        merchant_id: merchant.id,
        position: 1,
        type: 'DISCOUNT',
        title: '$10 off',
        points_cost: null,
        discount_minor: 1000,
        min_spend_minor: null,
        stamps_required: null,
        min_points: null,
        match_skus: '[]',
        match_keywords: '[]',
      },
    ])
    .execute();
  await db.insertInto('stamp_cards').values({ member_id: 'mem-1', reward_id: IDS.stamp, stamps_total: 17 }).execute();
  const instance = (id: string, status: string, origin = 'stamp_card', code: string | null = null) => ({
    id,
    merchant_id: merchant.id,
    member_id: 'mem-1',
    reward_id: origin === 'stamp_card' ? IDS.stamp : IDS.discount,
    origin,
    code,
    status,
    earned_sale_id: null,
    used_transaction_id: status === 'used' ? 'old-order' : null,
    used_at: null,
    created_at: NOW,
  });
  await db
    .insertInto('reward_instances')
    .values([
      instance('card-1', 'used'),
      instance('card-2', 'available'),
      instance('card-3', 'available'),
      instance('code-1', 'available', 'issued_code', 'LOYAL-OLD1'),
    ])
    .execute();
  await db
    .insertInto('redemptions')
    .values({
      id: 'red-1',
      merchant_id: merchant.id,
      outlet_id: SCOPE.outletId,
      source_vendor: SCOPE.source.vendor,
      source_store_id: SCOPE.source.storeId,
      external_transaction_id: 'old-order',
      reward_key: IDS.stamp,
      member_id: 'mem-1',
      reward_id: IDS.stamp,
      points_requested: null,
      points_deducted: 0,
      balance_after: 0,
      instance_id: 'card-1',
      status: 'committed',
      created_at: NOW,
    })
    .execute();
}

describe.each(testDialects())('migration 0002 (stamp cards counted) on $name', ({ name }) => {
  let database: SqlDatabase<EngineTables>;
  beforeEach(async () => {
    database = await openTestDatabase<EngineTables>(name);
  });
  afterEach(async () => {
    await database.close();
  });

  it('folds completed-card rows into counts, keeps issued codes, and the old redemption still reverses', async () => {
    await migrate(database.db, engineMigrationsThrough('0001_init'));
    await seedOldShape(database.db);
    await migrate(database.db, engineMigrations);
    const engine = await createEmbeddedEngine({ database });
    try {
      const card = await database.db.selectFrom('balances').selectAll().where('reward_id', '=', IDS.stamp).executeTakeFirstOrThrow();
      expect([Number(card.stamps_total), Number(card.cards_completed), Number(card.cards_redeemed)]).toEqual([17, 3, 1]);
      expect((await database.db.selectFrom('reward_instances').select('id').execute()).map((r) => r.id)).toEqual(['code-1']);
      expect((await database.db.selectFrom('redemptions').select('instance_id').executeTakeFirstOrThrow()).instance_id).toBeNull();
      const stamp = async () =>
        (await engine.eligibility({ ...SCOPE, customer: ANN })).eligibleRewards.find((r) => r.rewardId === IDS.stamp);
      expect(await stamp()).toMatchObject({ eligible: true });
      expect(await engine.reverse({ ...SCOPE, transactionId: 'old-order', refundId: 'r-old' })).toMatchObject({
        status: 'REVERSED',
        pointsReCredited: 0,
      });
      const after = await database.db
        .selectFrom('balances')
        .select(['cards_completed', 'cards_redeemed'])
        .where('reward_id', '=', IDS.stamp)
        .executeTakeFirstOrThrow();
      expect([Number(after.cards_completed), Number(after.cards_redeemed)]).toEqual([3, 0]);
    } finally {
      await engine.close();
    }
  });
});
