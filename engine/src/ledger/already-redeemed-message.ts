import { formatMoney, formatPoints } from '../rules/format-money.js';
import type { RedemptionRow } from './redeem-store.js';
import type { MerchantSettings } from './settings-cache.js';

/** What `points` are worth at the merchant's redemption rate (points per currency unit), in minor units. */
export function pointsWorthMinor(points: number, redemptionRate: number): number | null {
  if (!(redemptionRate > 0)) return null;
  return Math.floor((points * 100) / redemptionRate + 1e-9);
}

/** The redemption that stands, as the cashier applies it: "100 points ($1.00) were deducted then". */
function standing(existing: RedemptionRow, merchant: MerchantSettings): string {
  const points = Number(existing.points_deducted);
  if (existing.reward_id === null) {
    const worth = pointsWorthMinor(points, merchant.redemptionRate);
    const value = worth === null ? '' : ` (${formatMoney(worth, merchant.currency)})`;
    return `${formatPoints(points)}${value} ${points === 1 ? 'was' : 'were'} deducted then`;
  }
  const reward = merchant.rewardsById.get(existing.reward_id.toLowerCase());
  const title = reward ? `"${reward.title}"` : `reward ${existing.reward_id}`;
  return `${title} was redeemed then${points > 0 ? ` (${formatPoints(points)})` : ''}`;
}

/**
 * The cashier's message of a 409 already_redeemed: the spec tells the till to treat the 409 as
 * success, so it must say what stands (the figures first committed, not those of this request).
 */
export function alreadyRedeemedMessage(existing: RedemptionRow, merchant: MerchantSettings, sameMember: boolean): string {
  const how = sameMember ? 'with a different request' : 'for another customer';
  return `Already redeemed against this order ${how}: ${standing(existing, merchant)}. Apply only that; nothing more was deducted.`;
}
