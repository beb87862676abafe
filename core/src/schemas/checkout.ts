import { z } from 'zod';
import { PositiveMoney } from '../money.js';
import { CustomerIdentifier, id } from './common.js';

export const EligibilityRequest = z.strictObject({
  customer: CustomerIdentifier,
  orderValue: PositiveMoney.optional(),
});
export type EligibilityRequest = z.infer<typeof EligibilityRequest>;

export const RewardType = z.enum(['STAMP', 'POINTS', 'DISCOUNT', 'FREE_ITEM', 'TIER']);
export type RewardType = z.infer<typeof RewardType>;

export const EligibleReward = z.strictObject({
  rewardId: z.string(),
  title: z.string(),
  type: RewardType,
  pointsCost: z.number().int().nullable(),
  discountValue: z.number().nullable(),
  eligible: z.boolean(),
  reason: z.string().nullable(),
});
export type EligibleReward = z.infer<typeof EligibleReward>;

export const EligibilityResult = z.strictObject({
  membershipId: z.string(),
  walletBalance: z.number().int(),
  redemptionRate: z.number(),
  eligibleRewards: z.array(EligibleReward),
  warning: z.string().nullable(),
});
export type EligibilityResult = z.infer<typeof EligibilityResult>;

/** Exactly one of `rewardId` / `pointsToRedeem` is checked by the route (400, not 422). */
export const RedeemRequest = z.strictObject({
  customer: CustomerIdentifier,
  externalTransactionId: id(255),
  rewardId: z.uuid({ message: 'must be a UUID' }).optional(),
  pointsToRedeem: z.number().int({ message: 'must be an integer' }).positive({ message: 'must be greater than 0' }).optional(),
  orderValue: PositiveMoney.optional(),
});
export type RedeemRequest = z.infer<typeof RedeemRequest>;

export const RedeemResult = z.strictObject({
  status: z.enum(['REDEEMED', 'ALREADY_PROCESSED']),
  membershipId: z.string(),
  redemptionId: z.string().nullable(),
  rewardId: z.string().nullable(),
  pointsDeducted: z.number().int(),
  walletBalance: z.number().int(),
});
export type RedeemResult = z.infer<typeof RedeemResult>;

export const RefundRequest = z.strictObject({
  externalTransactionId: id(255),
  refundTransactionId: id(255),
  refundAmount: PositiveMoney.optional(),
});
export type RefundRequest = z.infer<typeof RefundRequest>;

export const RefundStatus = z.enum(['REVERSED', 'ALREADY_PROCESSED', 'NOTHING_TO_REVERSE']);
export type RefundStatus = z.infer<typeof RefundStatus>;

export const RefundResult = z.strictObject({
  status: RefundStatus,
  pointsReversed: z.number().int(),
  pointsReCredited: z.number().int(),
});
export type RefundResult = z.infer<typeof RefundResult>;
