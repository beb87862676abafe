import type { Kysely } from 'kysely';
import { SCOPE, testSeed } from './fixture.js';

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
