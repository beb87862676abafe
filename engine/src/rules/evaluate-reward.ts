import type { ErrorCode } from '@loyalty-gateway/core';
import { formatMoney, formatPoints } from './format-money.js';
import type { RewardRule } from './reward-rule.js';
import { balanceText } from './spendable.js';

/** What the member holds that bears on rewards: wallet, lifetime points, reward instances, stamp counts. */
export interface MemberHoldings {
  balance: number;
  lifetimePoints: number;
  /** Per issued reward (DISCOUNT, FREE_ITEM): available instance count and the codes of used instances. */
  instances: ReadonlyMap<string, { available: number; usedCodes: string[] }>;
  /** Per STAMP reward: lifetime stamp count and completed cards not yet redeemed. */
  stamps: ReadonlyMap<string, { total: number; available: number }>;
}

export type Verdict = { eligible: true; reason: null } | { eligible: false; reason: string; code: ErrorCode };

const ok: Verdict = { eligible: true, reason: null };
const no = (code: ErrorCode, reason: string): Verdict => ({ eligible: false, reason, code });

/** "Needs 500 points; customer has 320 (180 short)." (a negative balance is explained, not shown). */
export const pointsShort = (needed: number, balance: number): string =>
  `Needs ${formatPoints(needed)}; customer has ${balanceText(balance)} (${needed - balance} short).`;

function holdingVerdict(reward: RewardRule, h: MemberHoldings): Verdict {
  switch (reward.type) {
    case 'POINTS':
      return h.balance >= reward.pointsCost! ? ok : no('insufficient_points', pointsShort(reward.pointsCost!, h.balance));
    case 'TIER': {
      const min = reward.minPoints ?? 0;
      if (h.lifetimePoints >= min) return ok;
      return no(
        'not_eligible',
        `Tier reached at ${min} lifetime point${min === 1 ? '' : 's'}; customer has ${h.lifetimePoints} (${min - h.lifetimePoints} short).`,
      );
    }
    case 'STAMP': {
      const card = h.stamps.get(reward.id);
      if ((card?.available ?? 0) > 0) return ok;
      const required = reward.stampsRequired!;
      return no('not_eligible', `Stamp card ${(card?.total ?? 0) % required} of ${required}.`);
    }
    case 'DISCOUNT':
    case 'FREE_ITEM': {
      const held = h.instances.get(reward.id);
      if ((held?.available ?? 0) > 0) return ok;
      const used = held?.usedCodes[0];
      return no('not_eligible', used ? `Code ${used} already used.` : 'This reward has not been issued to this customer.');
    }
  }
}

/**
 * Minimum spend. Decision: without an order value a reward that has a minimum spend is not
 * eligible ("order value needed"), on eligibility and on redeem alike; nothing is assumed.
 */
function spendVerdict(reward: RewardRule, orderValueMinor: number | undefined, currency: string): Verdict {
  const min = reward.minSpendMinor;
  if (min === null) return ok;
  const minText = formatMoney(min, currency);
  if (orderValueMinor === undefined) return no('minimum_spend_not_met', `Order value needed to check the minimum spend of ${minText}.`);
  if (orderValueMinor >= min) return ok;
  return no('minimum_spend_not_met', `Spend ${formatMoney(min - orderValueMinor, currency)} more to use this reward (minimum ${minText}).`);
}

/** Can the member redeem this reward now? The holding rule first, then the minimum spend. */
export function evaluateReward(
  reward: RewardRule,
  holdings: MemberHoldings,
  orderValueMinor: number | undefined,
  currency: string,
): Verdict {
  const held = holdingVerdict(reward, holdings);
  return held.eligible ? spendVerdict(reward, orderValueMinor, currency) : held;
}
