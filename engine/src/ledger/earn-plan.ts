import type { EarnCommand } from '@loyalty-gateway/core';
import { pointsFor } from '../rules/earn-rate.js';
import { formatMoney } from '../rules/format-money.js';
import type { RewardRule } from '../rules/reward-rule.js';
import { stampsForSale, type CatalogSkus } from '../rules/stamps.js';
import type { Resolution } from './resolve-member.js';
import type { MerchantSettings } from './settings-cache.js';
import { tooManyStamps } from './stamp-limit.js';

/** What a sale earns, decided before the transaction opens (pure). */
export interface EarnPlan {
  memberId: string | null;
  membershipId: string;
  points: number;
  stamps: Array<{ reward: RewardRule; stamps: number }>;
  /** Upper-cased reward codes with the engine's prefix, to mark used for this member. */
  codes: string[];
  warning: string | null;
}

/** Reward codes on the sale that carry `<prefix>-` (case-insensitive), upper-cased; others are ignored. */
export function prefixedCodes(command: EarnCommand, prefix: string): string[] {
  const start = `${prefix.toUpperCase()}-`;
  const codes = new Set<string>();
  for (const { code } of command.transaction.discountCodes) {
    const upper = code.trim().toUpperCase();
    if (upper.startsWith(start) && upper.length > start.length) codes.add(upper);
  }
  return [...codes];
}

export function planEarn(
  command: EarnCommand,
  merchant: MerchantSettings,
  resolution: Resolution,
  catalog: CatalogSkus,
  prefix: string,
): EarnPlan {
  const { member } = resolution;
  if (!member) {
    return {
      memberId: null,
      membershipId: '',
      points: 0,
      stamps: [],
      codes: [],
      warning: `${resolution.reason} The sale was recorded; no points or stamps were awarded.`,
    };
  }
  // Plain literals, not `{ ...base, … }`: every member's earn builds one, and a spread followed by
  // more properties is an order of magnitude slower in V8.
  const codes = prefixedCodes(command, prefix);
  const tx = command.transaction;
  if (tx.currency !== merchant.currency) {
    const warning = `No points or stamps earned: the sale is in ${tx.currency} but this merchant earns on ${merchant.currency} sales.`;
    return { memberId: member.id, membershipId: member.membershipId, codes, points: 0, stamps: [], warning };
  }
  const points = pointsFor(tx.totalMinor, merchant.earnRate);
  const stamps = stampsForSale(tx.items, merchant.rewards, catalog);
  for (const { reward, stamps: added } of stamps) if (!Number.isSafeInteger(added)) throw tooManyStamps(reward, added);
  const warning =
    points === 0 && stamps.length === 0
      ? `No points earned: the total ${formatMoney(tx.totalMinor, tx.currency)} is below one point at this merchant's earn rate, and no item matched a stamp card.`
      : null;
  return { memberId: member.id, membershipId: member.membershipId, codes, points, stamps, warning };
}

/** True when the sale needs the outlet's catalog to match stamp rules. */
export const needsCatalog = (command: EarnCommand, merchant: MerchantSettings): boolean =>
  command.transaction.items.length > 0 && merchant.rewards.some((r) => r.type === 'STAMP');
