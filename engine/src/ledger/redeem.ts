/**
 * Redemption at payment. Idempotent per (source, externalTransactionId, reward id or 'points'):
 * the `redemptions` UNIQUE key. Decisions:
 * - An identical retry (same member, same reward or same pointsToRedeem, same orderValue) answers
 *   ALREADY_PROCESSED with the original figures (walletBalance = balance right after the original)
 *   and deducts nothing.
 * - The same key with a different payload (another customer, pointsToRedeem or orderValue) is 409
 *   `already_redeemed`, its message naming what stands (the points first deducted and their
 *   worth, or the reward's title): the till treats the 409 as success and applies only that. A
 *   concurrent identical request waits on the key and then replays.
 * - Any retry of a redemption that a refund of the order has reversed is 400
 *   `redemption_reversed`: replaying its figures would make the till apply a discount that no
 *   longer stands (a 409 would too: the spec says "treat as success").
 * - The wallet debit is one conditional update (balance >= cost): concurrent redemptions can never
 *   overdraw; the loser gets `insufficient_points` with the numbers.
 */
import { alreadyRedeemedMessage } from './already-redeemed-message.js';
import { newId } from './new-id.js';
import { EngineError, type EngineCallOptions, type RedeemCommand, type RedeemResult } from '@loyalty-gateway/core';
import { evaluateReward, pointsShort } from '../rules/evaluate-reward.js';
import { isIssuedReward, type RewardRule } from '../rules/reward-rule.js';
import { spendablePoints } from '../rules/spendable.js';
import type { EngineContext } from './context.js';
import { memberKey } from './commit-key.js';
import { ensureBefore } from './deadline.js';
import { redeemPoints } from './redeem-postgres.js';
import { loadHoldings } from './member-holdings.js';
import {
  consumeInstance,
  consumeStampCard,
  currentBalance,
  debitWallet,
  findRedemption,
  insertRedemption,
  redemptionKey,
  type RedemptionKey,
  type RedemptionRow,
} from './redeem-store.js';
import { resolveMember, type ResolvedMember } from './resolve-member.js';
import type { MerchantSettings } from './settings-cache.js';

/** Why a redemption's writes were not made (see commit); turned into an answer outside. */
class Refusal extends Error {
  constructor(readonly kind: 'insufficient' | 'unavailable' | 'taken') {
    super(kind);
  }
}

function replay(existing: RedemptionRow, member: ResolvedMember, command: RedeemCommand, merchant: MerchantSettings): RedeemResult {
  if (existing.status === 'reversed') {
    throw new EngineError(
      'redemption_reversed',
      `This redemption was refunded (order ${command.externalTransactionId}): do not apply it. Nothing was deducted now; to redeem again, use a new order id.`,
    );
  }
  const samePoints = command.pointsToRedeem === undefined || Number(existing.points_requested) === command.pointsToRedeem;
  const sameOrderValue = (existing.order_value_minor === null ? undefined : Number(existing.order_value_minor)) === command.orderValueMinor;
  if (existing.member_id !== member.id || !samePoints || !sameOrderValue) {
    throw new EngineError('already_redeemed', alreadyRedeemedMessage(existing, merchant, existing.member_id === member.id));
  }
  return {
    status: 'ALREADY_PROCESSED',
    membershipId: member.membershipId,
    redemptionId: existing.id,
    rewardId: existing.reward_id,
    pointsDeducted: Number(existing.points_deducted),
    walletBalance: spendablePoints(Number(existing.balance_after)),
  };
}

/** Refuse early, with the cashier's reason, what the rules already say no to. */
async function precheck(
  ctx: EngineContext,
  merchant: MerchantSettings,
  member: ResolvedMember,
  reward: RewardRule | null,
  command: RedeemCommand,
): Promise<void> {
  if (!reward) {
    const points = command.pointsToRedeem!;
    if (!Number.isSafeInteger(points) || points <= 0)
      throw new EngineError('not_eligible', 'pointsToRedeem must be a whole number greater than 0.');
    if (member.balance < points) throw new EngineError('insufficient_points', pointsShort(points, member.balance));
    return;
  }
  const holdings = await loadHoldings(ctx.db, member, reward.id);
  const verdict = evaluateReward(reward, holdings, command.orderValueMinor, merchant.currency);
  if (!verdict.eligible) throw new EngineError(verdict.code, verdict.reason);
}

/**
 * The redemption's writes, as one unit of the engine's group commit (context.ts atomically): they
 * commit with the batch's other units, or not at all. A refusal found before the unit's first
 * write is the unit's answer, and its batch goes on: the debit matched no row (the balance falls
 * short, or a redemption earlier in the same batch holds the key: debitWallet), or no card or
 * issued reward is left (those cost 0: nothing was debited). The caller is answered after the
 * batch's commit, so explainRefusal then finds the redemption that holds the key. Only a key taken
 * by another transaction meanwhile (on PostgreSQL, another process's) is found by the insert,
 * after the debit: that refusal is thrown, which rolls the unit back with its batch
 * (transaction-batcher.ts: the batch's other units run again).
 */
async function commit(
  ctx: EngineContext,
  member: ResolvedMember,
  reward: RewardRule | null,
  command: RedeemCommand,
  key: RedemptionKey,
  deadline: number | undefined,
): Promise<RedeemResult> {
  const cost = reward ? (reward.type === 'POINTS' ? reward.pointsCost! : 0) : command.pointsToRedeem!;
  const issued = reward !== null && isIssuedReward(reward.type);
  // On PostgreSQL a redemption that only costs points is one statement (redeem-postgres.ts): one
  // round trip of the batch's connection instead of three.
  const atOnce = ctx.dialect === 'postgres' && cost > 0 && (reward === null || reward.type === 'POINTS');
  const id = newId();
  const now = ctx.now();
  const outcome = await ctx.atomically(
    async (trx): Promise<RedeemResult | Refusal> => {
      if (atOnce) {
        const done = await redeemPoints(trx, command, { id, key, memberId: member.id, points: cost, now, ledgerId: newId() });
        if (done === null) return new Refusal('insufficient');
        if (!done.inserted) throw new Refusal('taken');
        return redeemed(member, reward, id, cost, done.balanceAfter);
      }
      const balanceAfter = await debitWallet(trx, member.id, cost, key);
      if (balanceAfter === null) return new Refusal(cost > 0 ? 'insufficient' : 'taken');
      // Only a reward that costs nothing consumes a card or an issued instance: nothing debited yet.
      if (reward?.type === 'STAMP' && !(await consumeStampCard(trx, member.id, reward.id))) return new Refusal('unavailable');
      const instanceId = issued ? await consumeInstance(trx, member.id, reward.id, command.externalTransactionId, now) : null;
      if (issued && instanceId === null) return new Refusal('unavailable');
      if (!(await insertRedemption(trx, command, { id, key, memberId: member.id, pointsDeducted: cost, balanceAfter, instanceId, now }))) {
        throw new Refusal('taken');
      }
      return redeemed(member, reward, id, cost, balanceAfter);
    },
    deadline,
    memberKey(command.merchantId, command.customer),
  );
  if (outcome instanceof Refusal) throw outcome;
  return outcome;
}

function redeemed(member: ResolvedMember, reward: RewardRule | null, id: string, cost: number, balanceAfter: number): RedeemResult {
  return {
    status: 'REDEEMED',
    membershipId: member.membershipId,
    redemptionId: id,
    rewardId: reward?.id ?? null,
    pointsDeducted: cost,
    walletBalance: spendablePoints(balanceAfter),
  };
}

/** After a refused attempt (nothing of it written): replay a redemption that holds the key, else explain the refusal. */
async function explainRefusal(
  ctx: EngineContext,
  refusal: Refusal,
  merchant: MerchantSettings,
  member: ResolvedMember,
  reward: RewardRule | null,
  command: RedeemCommand,
  key: RedemptionKey,
): Promise<RedeemResult> {
  const existing = await findRedemption(ctx.db, key);
  if (existing) return replay(existing, member, command, merchant);
  const balance = await currentBalance(ctx.db, member.id);
  if (refusal.kind === 'insufficient') {
    throw new EngineError('insufficient_points', pointsShort(reward?.pointsCost ?? command.pointsToRedeem!, balance));
  }
  const holdings = await loadHoldings(ctx.db, { ...member, balance }, reward?.id);
  const verdict = reward ? evaluateReward(reward, holdings, command.orderValueMinor, merchant.currency) : null;
  throw new EngineError(
    'not_eligible',
    verdict && !verdict.eligible ? verdict.reason : "This reward was just used; refresh the customer's rewards.",
  );
}

export async function redeem(ctx: EngineContext, command: RedeemCommand, options: EngineCallOptions = {}): Promise<RedeemResult> {
  if ((command.rewardId === undefined) === (command.pointsToRedeem === undefined)) throw new EngineError('selector_required');
  ensureBefore(options.deadline, 'start');
  const merchant = await ctx.cache.requireMerchant(command.merchantId);
  const reward = command.rewardId === undefined ? null : (merchant.rewardsById.get(command.rewardId.toLowerCase()) ?? null);
  const resolution = await resolveMember(ctx.db, merchant, command.customer);
  if (!resolution.member) throw new EngineError('member_not_found');
  const member = resolution.member;
  // Rewards are never removed, so no redemption can be recorded under an id the merchant lacks.
  if (command.rewardId !== undefined && !reward) throw new EngineError('reward_not_found');
  const key = redemptionKey(command, reward?.id ?? 'points');
  const existing = await findRedemption(ctx.db, key);
  if (existing) return replay(existing, member, command, merchant);
  await precheck(ctx, merchant, member, reward, command);
  try {
    return await commit(ctx, member, reward, command, key, options.deadline);
  } catch (error) {
    if (error instanceof Refusal) return explainRefusal(ctx, error, merchant, member, reward, command, key);
    throw error;
  }
}
