import type { RewardType } from '@loyalty-gateway/core';

/**
 * A configured reward as the rules see it (loaded once per merchant and cached).
 *
 * - STAMP: a stamp card; `stampsRequired` stamps from matching sale lines complete a card, and
 *   every completed card is one redeemable reward for the member (counted on the card).
 * - POINTS: bought with `pointsCost` points from the wallet.
 * - DISCOUNT: an online reward issued to a member as a code (`issuedCodes`); redeemable once per
 *   issued, unused code; `minSpend` optional.
 * - FREE_ITEM: like DISCOUNT (issued, consumed once), with an optional `match` naming the free item.
 * - TIER: a status perk, not consumed: eligible while the member's lifetime points (points ever
 *   earned or opened with, minus reversals; redemptions do not lower a tier) reach `minPoints`.
 *   Redeeming it deducts nothing and is recorded once per order like every redemption.
 */
export interface RewardRule {
  id: string;
  type: RewardType;
  title: string;
  pointsCost: number | null;
  discountMinor: number | null;
  minSpendMinor: number | null;
  stampsRequired: number | null;
  minPoints: number | null;
  skus: ReadonlySet<string>;
  /** Lower-cased. */
  keywords: readonly string[];
}

/** Rewards issued to a member as codes, each consumed once (reward_instances rows). */
export const isIssuedReward = (type: RewardType): boolean => type === 'DISCOUNT' || type === 'FREE_ITEM';
