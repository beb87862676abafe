/**
 * One merchant of the engine's seed: its settings, outlets, members, rewards and issued codes
 * (strict: unknown fields fail). The seed as a whole, and the checks across its merchants, are
 * engine-seed.ts's.
 */
import { Currency, operatorId, PositiveMoney } from '@loyalty-gateway/core';
import { z } from 'zod';

/** Ids and names: 1–255 characters a database stores as sent (core's operatorId). */
const name = operatorId;
const match = z.strictObject({
  skus: z.array(name).default([]),
  keywords: z.array(name).default([]),
});
const rewardBase = {
  id: z.uuid({ message: 'must be a UUID' }),
  title: name,
  discountValue: PositiveMoney.optional(),
  minSpend: PositiveMoney.optional(),
};

export const StampRewardSeed = z.strictObject({ ...rewardBase, type: z.literal('STAMP'), stampsRequired: z.number().int().min(1), match });
export const PointsRewardSeed = z.strictObject({ ...rewardBase, type: z.literal('POINTS'), pointsCost: z.number().int().min(1) });
export const DiscountRewardSeed = z.strictObject({ ...rewardBase, type: z.literal('DISCOUNT'), discountValue: PositiveMoney });
export const FreeItemRewardSeed = z.strictObject({ ...rewardBase, type: z.literal('FREE_ITEM'), match: match.optional() });
/** TIER: eligible while the member's lifetime points reach `minPoints` (see RewardRule). */
export const TierRewardSeed = z.strictObject({ ...rewardBase, type: z.literal('TIER'), minPoints: z.number().int().min(0) });

export const RewardSeed = z.discriminatedUnion('type', [
  StampRewardSeed,
  PointsRewardSeed,
  DiscountRewardSeed,
  FreeItemRewardSeed,
  TierRewardSeed,
]);
export type RewardSeed = z.infer<typeof RewardSeed>;

export const MemberSeed = z.strictObject({
  membershipId: name,
  phone: name.optional(),
  email: z.string().trim().email({ message: 'must be an email address' }).max(255).optional(),
  externalId: name.optional(),
  points: z.number().int().min(0).default(0),
});
export type MemberSeed = z.infer<typeof MemberSeed>;

/** A positive decimal with at most 6 decimal places, e.g. 1, 1.5, 0.1 (kept exact). */
const Rate = z
  .number()
  .positive()
  .refine((n) => Number.isFinite(n) && Math.round(n * 1e6) / 1e6 === n, { message: 'must have at most 6 decimal places' });

export const MerchantSeed = z.strictObject({
  id: name,
  name,
  currency: Currency,
  defaultCountryCode: z.string().regex(/^[1-9]\d{0,2}$/, { message: 'must be 1–3 digits without + (e.g. "1", "44")' }),
  earnRate: Rate,
  redemptionRate: Rate,
  outlets: z.array(z.strictObject({ id: name, name })).default([]),
  members: z.array(MemberSeed).default([]),
  rewards: z.array(RewardSeed).default([]),
  issuedCodes: z.array(z.strictObject({ code: name, rewardId: z.string(), membershipId: z.string() })).default([]),
});
export type MerchantSeed = z.infer<typeof MerchantSeed>;
