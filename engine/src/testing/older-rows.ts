import type { Kysely } from 'kysely';
import type { MigrationSet } from '@loyalty-gateway/storage';
import { engineMigrations } from '../db/migrations/index.js';
import { ANN, IDS, SCOPE, testSeed } from './fixture.js';

/** The engine's migrations up to and including `last` (a name such as '0006_refund_withdrawal'): the schema a migration test starts from. */
export function engineMigrationsThrough(last: string): MigrationSet {
  return {
    table: engineMigrations.table,
    migrations: Object.fromEntries(Object.entries(engineMigrations.migrations).filter(([name]) => name <= last)),
  };
}

/**
 * The test seed's merchant, its outlet and one member (id `mem-1`), written as rows directly — as
 * every migration since 0001 stores them — for migration tests that build the older shape a
 * migration rewrites. Returns the merchant's id.
 */
export async function insertMerchantAndMember(db: Kysely<any>, membershipId: string, createdAt: string): Promise<string> {
  const merchant = testSeed().merchants[0]!;
  await db
    .insertInto('merchants')
    .values({
      id: merchant.id,
      name: merchant.name,
      currency: 'USD',
      default_country_code: '1',
      earn_rate: '1',
      redemption_rate: '100',
      created_at: createdAt,
    })
    .execute();
  await db.insertInto('outlets').values({ merchant_id: merchant.id, id: SCOPE.outletId, name: 'Downtown' }).execute();
  await db
    .insertInto('members')
    .values({
      id: 'mem-1',
      merchant_id: merchant.id,
      membership_id: membershipId,
      phone: null,
      email: null,
      external_id: null,
      created_at: createdAt,
    })
    .execute();
  return merchant.id;
}

/**
 * The test seed's merchant and member `mem-1` (membership id ANN's) with a wallet (250 points,
 * 900 lifetime) and a stamp card of IDS.stamp (Buy 5: 12 stamps, 2 cards completed, 1 redeemed),
 * in the two tables the migrations before 0008 keep them in.
 */
export async function insertWalletAndCard(db: Kysely<any>, createdAt: string): Promise<void> {
  const merchantId = await insertMerchantAndMember(db, ANN.value, createdAt);
  await db.insertInto('wallets').values({ member_id: 'mem-1', balance: 250, lifetime_points: 900 }).execute();
  await db.insertInto('rewards').values(stampRewardRow(merchantId)).execute();
  await db
    .insertInto('stamp_cards')
    .values({ member_id: 'mem-1', reward_id: IDS.stamp, stamps_total: 12, cards_completed: 2, cards_redeemed: 1 })
    .execute();
}

/** The test seed's stamp reward (IDS.stamp, Buy 5 coffees) as a `rewards` row, position 0. */
export function stampRewardRow(merchantId: string) {
  return {
    id: IDS.stamp,
    merchant_id: merchantId,
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
  };
}
