import type { CatalogSyncResult, EligibilityResult, EligibleReward, RedeemResult, RefundResult } from '@loyalty-gateway/core';

/**
 * The spec's result shapes, field by field: whatever an engine implementation adds to its answer
 * (the reversal's membershipId, say) never reaches the till.
 */
const eligibleReward = (r: EligibleReward): EligibleReward => ({
  rewardId: r.rewardId,
  title: r.title,
  type: r.type,
  pointsCost: r.pointsCost,
  discountValue: r.discountValue,
  eligible: r.eligible,
  reason: r.reason,
});

export const eligibilityResult = (r: EligibilityResult): EligibilityResult => ({
  membershipId: r.membershipId,
  walletBalance: r.walletBalance,
  redemptionRate: r.redemptionRate,
  eligibleRewards: r.eligibleRewards.map(eligibleReward),
  warning: r.warning,
});

export const redeemResult = (r: RedeemResult): RedeemResult => ({
  status: r.status,
  membershipId: r.membershipId,
  redemptionId: r.redemptionId,
  rewardId: r.rewardId,
  pointsDeducted: r.pointsDeducted,
  walletBalance: r.walletBalance,
});

export const refundResult = (r: RefundResult): RefundResult => ({
  status: r.status,
  pointsReversed: r.pointsReversed,
  pointsReCredited: r.pointsReCredited,
});

export const catalogSyncResult = (r: CatalogSyncResult): CatalogSyncResult => ({
  status: 'synced',
  itemsReceived: r.itemsReceived,
  itemsCreated: r.itemsCreated,
  itemsUpdated: r.itemsUpdated,
  itemsDeactivated: r.itemsDeactivated,
});
