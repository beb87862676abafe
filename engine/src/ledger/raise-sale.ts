/**
 * A paid order that grew: items added after payment and the added money captured (a Shopify order
 * edit, a Clover order re-paid in full). The featured adapter states the order as it is now, paid
 * in full; the ledger earns on the added money, once.
 *
 * Decisions:
 * - State, not event: the sale's total only ever rises to the largest paid total stated; the same
 *   state again, or an older smaller one arriving late, changes nothing. So a redelivery, a
 *   reconciliation pull finding the same order and a replay all land once, and a sale first seen
 *   after its edit (earned on the grown total already) is never raised twice.
 * - Points: the sale's earn becomes floor(new total × earn rate) (never less than it earned), and
 *   what its refunds reversed is recomputed on the new total (the cumulative refunded amount over
 *   the larger total), so a later refund of the added item reverses its own share, not more.
 *   Stamps are not added for the added lines (the spec moves stamp cards on sale.completed only).
 * - Only a sale that earned as a member's sale in the merchant's currency is raised; the sale's
 *   fingerprint becomes the grown order's, so its later copies are plain duplicates.
 */
import { saleFingerprint, type EarnCommand, type EngineCallOptions, type RaiseSaleResult } from '@loyalty-gateway/core';
import { sql } from 'kysely';
import { pointsFor, proportion } from '../rules/earn-rate.js';
import type { EngineContext, Tx } from './context.js';
import { transactBefore } from './deadline.js';
import { newId } from './new-id.js';
import { lockSale } from './sale-lock.js';
import { WALLET } from './balances.js';

const UNCHANGED = (membershipId: string, totalMinor: number): RaiseSaleResult => ({
  status: 'UNCHANGED',
  pointsEarned: 0,
  totalMinor,
  membershipId,
});

async function membershipIdOf(trx: Tx, memberId: string | null): Promise<string> {
  if (!memberId) return '';
  const row = await trx.selectFrom('members').select('membership_id').where('id', '=', memberId).executeTakeFirst();
  return row?.membership_id ?? '';
}

/** Earn on what a paid order grew by, once (the total only rises), in one transaction (never committed past the deadline). */
export async function raiseSale(ctx: EngineContext, command: EarnCommand, options: EngineCallOptions = {}): Promise<RaiseSaleResult> {
  const now = ctx.now();
  const merchant = await ctx.cache.requireMerchant(command.merchantId);
  const grown = command.transaction;
  return transactBefore(ctx.db, options.deadline, async (trx) => {
    await lockSale(ctx, trx, command.source, grown.id);
    const sale = await trx
      .selectFrom('sales')
      .select(['id', 'member_id', 'total_minor', 'currency', 'points_earned', 'points_reversed', 'refunded_minor'])
      .where('source_vendor', '=', command.source.vendor)
      .where('source_store_id', '=', command.source.storeId)
      .where('transaction_id', '=', grown.id)
      .executeTakeFirst();
    if (!sale) return UNCHANGED('', 0);
    const total = Number(sale.total_minor);
    const membershipId = await membershipIdOf(trx, sale.member_id);
    if (grown.totalMinor <= total || grown.currency !== sale.currency) return UNCHANGED(membershipId, total);
    const earned = Number(sale.points_earned);
    const reversed = Number(sale.points_reversed);
    const refunded = Number(sale.refunded_minor);
    const earns = sale.member_id !== null && sale.currency === merchant.currency;
    const nowEarned = earns ? Math.max(earned, pointsFor(grown.totalMinor, merchant.earnRate)) : earned;
    const nowReversed = refunded >= grown.totalMinor ? nowEarned : proportion(nowEarned, refunded, grown.totalMinor);
    const credit = nowEarned - earned - (nowReversed - reversed);
    await trx
      .updateTable('sales')
      .set({
        total_minor: grown.totalMinor,
        points_earned: nowEarned,
        points_reversed: nowReversed,
        fingerprint: saleFingerprint(grown),
      })
      .where('id', '=', sale.id)
      .execute();
    if (credit !== 0 && sale.member_id) {
      await trx
        .updateTable('balances')
        .set({ balance: sql`balance + ${credit}`, lifetime_points: sql`lifetime_points + ${credit}` })
        .where('member_id', '=', sale.member_id)
        .where('reward_id', '=', WALLET)
        .execute();
      await trx
        .insertInto('ledger_entries')
        .values({
          id: newId(),
          member_id: sale.member_id,
          kind: 'raise',
          points: credit,
          ref_id: `${sale.id}:${grown.totalMinor}`,
          created_at: now,
        })
        .execute();
    }
    return { status: 'RAISED', pointsEarned: credit, totalMinor: grown.totalMinor, membershipId };
  });
}
