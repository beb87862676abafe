import { newId } from '../ledger/new-id.js';
import { parseOrThrow, toMinorUnits } from '@loyalty-gateway/core';
import { normalizeEmail, normalizePhone } from '../rules/phone.js';
import { parseRate, rateToText } from '../rules/earn-rate.js';
import type { Tx } from '../ledger/context.js';
import { WALLET } from '../ledger/balances.js';
import { declaredPrefix, establishPrefix } from './code-prefix.js';
import { EngineSeed } from './engine-seed.js';
import type { MerchantSeed, RewardSeed } from './merchant-seed.js';

const CHUNK = 200;
const minor = (amount: number | undefined) => (amount === undefined ? null : toMinorUnits(amount));

function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}

function rewardRow(merchantId: string, reward: RewardSeed, position: number) {
  const match = 'match' in reward ? reward.match : undefined;
  return {
    id: reward.id,
    merchant_id: merchantId,
    position,
    type: reward.type,
    title: reward.title,
    points_cost: reward.type === 'POINTS' ? reward.pointsCost : null,
    discount_minor: minor(reward.discountValue),
    min_spend_minor: minor(reward.minSpend),
    stamps_required: reward.type === 'STAMP' ? reward.stampsRequired : null,
    min_points: reward.type === 'TIER' ? reward.minPoints : null,
    match_skus: JSON.stringify(match?.skus ?? []),
    match_keywords: JSON.stringify(match?.keywords ?? []),
  };
}

async function seedMembers(trx: Tx, merchant: MerchantSeed, now: string): Promise<void> {
  for (const batch of chunks(merchant.members)) {
    const rows = batch.map((m) => ({
      id: newId(),
      merchant_id: merchant.id,
      membership_id: m.membershipId,
      phone: m.phone === undefined ? null : normalizePhone(m.phone, merchant.defaultCountryCode),
      email: m.email === undefined ? null : normalizeEmail(m.email),
      external_id: m.externalId ?? null,
      created_at: now,
    }));
    const created = await trx
      .insertInto('members')
      .values(rows)
      .onConflict((oc) => oc.doNothing())
      .returning(['id', 'membership_id'])
      .execute();
    if (created.length === 0) continue;
    // Points are credited only when the member is created: a re-applied seed never re-credits.
    const points = new Map(batch.map((m) => [m.membershipId, m.points]));
    await trx
      .insertInto('balances')
      .values(
        created.map((c) => ({
          member_id: c.id,
          reward_id: WALLET,
          balance: points.get(c.membership_id)!,
          lifetime_points: points.get(c.membership_id)!,
        })),
      )
      .execute();
    const opening = created.filter((c) => points.get(c.membership_id)! > 0);
    if (opening.length > 0) {
      await trx
        .insertInto('ledger_entries')
        .values(
          opening.map((c) => ({
            id: newId(),
            member_id: c.id,
            kind: 'opening',
            points: points.get(c.membership_id)!,
            ref_id: c.id,
            created_at: now,
          })),
        )
        .execute();
    }
  }
}

async function seedCodes(trx: Tx, merchant: MerchantSeed, now: string): Promise<void> {
  if (merchant.issuedCodes.length === 0) return;
  const members = await trx
    .selectFrom('members')
    .select(['id', 'membership_id'])
    .where('merchant_id', '=', merchant.id)
    .where('membership_id', 'in', [...new Set(merchant.issuedCodes.map((c) => c.membershipId))])
    .execute();
  const memberIds = new Map(members.map((m) => [m.membership_id, m.id]));
  const rows = merchant.issuedCodes.map((c) => ({
    id: newId(),
    merchant_id: merchant.id,
    member_id: memberIds.get(c.membershipId)!,
    reward_id: c.rewardId,
    origin: 'issued_code',
    code: c.code.toUpperCase(),
    status: 'available',
    earned_sale_id: null,
    used_transaction_id: null,
    used_at: null,
    created_at: now,
  }));
  for (const batch of chunks(rows)) {
    await trx
      .insertInto('reward_instances')
      .values(batch)
      .onConflict((oc) => oc.columns(['merchant_id', 'code']).doNothing())
      .execute();
  }
}

async function seedMerchant(trx: Tx, merchant: MerchantSeed, now: string): Promise<void> {
  await trx
    .insertInto('merchants')
    .values({
      id: merchant.id,
      name: merchant.name,
      currency: merchant.currency,
      default_country_code: merchant.defaultCountryCode,
      earn_rate: rateToText(parseRate(merchant.earnRate)),
      redemption_rate: rateToText(parseRate(merchant.redemptionRate)),
      created_at: now,
    })
    .onConflict((oc) => oc.doNothing())
    .execute();
  if (merchant.outlets.length > 0) {
    await trx
      .insertInto('outlets')
      .values(merchant.outlets.map((o) => ({ merchant_id: merchant.id, id: o.id, name: o.name })))
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
  if (merchant.rewards.length > 0) {
    await trx
      .insertInto('rewards')
      .values(merchant.rewards.map((r, i) => rewardRow(merchant.id, r, i)))
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
  await seedMembers(trx, merchant, now);
  await seedCodes(trx, merchant, now);
}

/**
 * Apply a seed idempotently in one transaction: what is missing is created, nothing that exists
 * is changed (merchants, outlets, rewards, members and issued codes are insert-if-absent; a
 * member's opening points are credited only when the member is created).
 *
 * The reward-code prefix is checked first (see code-prefix.ts): while issued codes carry the
 * engine's prefix, a seed standing for another is refused before anything is written; otherwise
 * the seed's prefix is stored. `prefixFor(seed)` is the prefix the engine uses with that seed
 * applied (an engine option wins over the seed's); for the seed without a prefix of its own, the
 * engine's current one. The seed is returned with `codePrefix` set to the prefix in effect after
 * it when it stood for one, unset otherwise.
 */
export async function applySeed(db: Tx, input: unknown, prefixFor: (seed: EngineSeed) => string, now: string): Promise<EngineSeed> {
  const seed = parseOrThrow(EngineSeed, input);
  const declared = declaredPrefix(seed);
  const view =
    declared === undefined
      ? null
      : { current: prefixFor({ ...seed, codePrefix: undefined }), after: prefixFor({ ...seed, codePrefix: declared }) };
  const established = await db.transaction().execute(async (trx) => {
    const prefix = declared === undefined ? undefined : await establishPrefix(trx, declared, seed.codePrefix !== undefined, view!);
    for (const merchant of seed.merchants) await seedMerchant(trx, merchant, now);
    return prefix;
  });
  return { ...seed, codePrefix: established };
}
