import {
  fromMinorUnits,
  type EligibilityCommand,
  type EligibilityResult,
  type EligibleReward,
  type EngineCallOptions,
} from '@loyalty-gateway/core';
import { evaluateReward, type MemberHoldings } from '../rules/evaluate-reward.js';
import type { RewardRule } from '../rules/reward-rule.js';
import { debtWarning, spendablePoints } from '../rules/spendable.js';
import type { EngineContext } from './context.js';
import { ensureBefore } from './deadline.js';
import { loadHoldings } from './member-holdings.js';
import { resolveMember } from './resolve-member.js';

function describe(reward: RewardRule, holdings: MemberHoldings, orderValueMinor: number | undefined, currency: string): EligibleReward {
  const verdict = evaluateReward(reward, holdings, orderValueMinor, currency);
  return {
    rewardId: reward.id,
    title: reward.title,
    type: reward.type,
    pointsCost: reward.type === 'POINTS' ? reward.pointsCost : null,
    discountValue: reward.discountMinor === null ? null : fromMinorUnits(reward.discountMinor),
    eligible: verdict.eligible,
    reason: verdict.reason,
  };
}

/** Read-only: every configured reward with whether this customer can redeem it now, and why not. */
export async function eligibility(
  ctx: EngineContext,
  command: EligibilityCommand,
  options: EngineCallOptions = {},
): Promise<EligibilityResult> {
  ensureBefore(options.deadline, 'start'); // the caller has given up: do not spend the database on it
  const merchant = await ctx.cache.requireMerchant(command.merchantId);
  const resolution = await resolveMember(ctx.db, merchant, command.customer);
  if (!resolution.member) {
    return { membershipId: '', walletBalance: 0, redemptionRate: merchant.redemptionRate, eligibleRewards: [], warning: resolution.reason };
  }
  const holdings = await loadHoldings(ctx.db, resolution.member);
  return {
    membershipId: resolution.member.membershipId,
    walletBalance: spendablePoints(resolution.member.balance),
    redemptionRate: merchant.redemptionRate,
    eligibleRewards: merchant.rewards.map((r) => describe(r, holdings, command.orderValueMinor, merchant.currency)),
    warning: debtWarning(resolution.member.balance),
  };
}
