/**
 * Refund reversal (shared by the `sale.refunded` webhook and POST /v1/refund).
 *
 * Decisions:
 * - Exactly once per (source vendor, source store, refund id): the `refunds` UNIQUE key; a repeat
 *   answers ALREADY_PROCESSED with the figures of the original reversal and changes nothing; the
 *   id reused for another sale or another amount is 400 refund_id_reused. Amounts are compared as
 *   what they refund: an omitted amount is the sale's total (so is an amount above it), so a full
 *   refund retried with its amount spelled out, or the other way round, is the same refund.
 * - Earned points reverse on the CUMULATIVE refunded amount: after this refund the sale has
 *   reversed floor(earned × min(cumulative, total) / total) points in all; this refund reverses
 *   that target minus what earlier refunds reversed. A full refund (no amount) or a cumulative
 *   amount reaching the total reverses exactly the remainder, so the sum never exceeds `earned`.
 * - Points redeemed against the sale (redemptions on the same source and transaction id) are
 *   re-credited ONCE, on the refund that completes the sale's reversal (full refund, or the
 *   cumulative amount reaching the total); partial refunds before that re-credit nothing. Consumed
 *   stamp-card rewards and issued codes used against the sale are restored on that same refund.
 * - A refund naming a sale that never reached the engine (an abandoned sale a redemption was
 *   committed against) re-credits that order's redemptions at once: there is no total to prorate.
 * - The wallet may go below zero, but only through a reversal of points the member already spent:
 *   the ledger stays true (points earned on a refunded sale are always taken back) and redemption
 *   can never overdraw (its debit is conditional on the balance).
 * - Stamps earned by a refunded sale are not taken back (cards completed may already be used).
 * - A reversal can be given back once (withdraw-refunds.ts: the vendor deleted or voided it); its
 *   id then stays used, so a late copy of it answers ALREADY_PROCESSED and reverses nothing.
 * - NOTHING_TO_REVERSE (a success, still recorded so the refund id dedupes): the sale is unknown
 *   and had no redemptions, or it earned nothing and nothing was re-credited or restored, or an
 *   earlier refund already completed its reversal. A refund recorded before its sale is applied
 *   when the sale arrives (earlier-refunds.ts); `lockSale` keeps the two from missing each other.
 */
import { newId } from './new-id.js';
import { EngineError, fromMinorUnits, type EngineCallOptions, type RefundResult, type ReverseCommand } from '@loyalty-gateway/core';
import { sql } from 'kysely';
import { proportion } from '../rules/earn-rate.js';
import type { EngineContext, Tx } from './context.js';
import { transactBefore } from './deadline.js';
import { moveWalletPoints, recreditRedemptions, type SaleRef } from './reverse-recredit.js';
import { lockSale } from './sale-lock.js';
import { WITHDRAWN, utcTime } from './refund-status.js';

export type ReverseResult = RefundResult & { membershipId: string };

interface Outcome {
  status: RefundResult['status'];
  reversed: number;
  recredited: number;
  saleId: string | null;
  memberId: string | null;
}

async function membershipIdOf(trx: Tx, memberId: string | null): Promise<string> {
  if (!memberId) return '';
  const row = await trx.selectFrom('members').select('membership_id').where('id', '=', memberId).executeTakeFirst();
  return row?.membership_id ?? '';
}

/** Add this refund to the sale's cumulative refunded amount; the update also locks the sale row. */
async function applyToSale(trx: Tx, command: ReverseCommand) {
  const added = command.amountMinor ?? null;
  return trx
    .updateTable('sales')
    .set({ refunded_minor: added === null ? sql`refunded_minor + total_minor` : sql`refunded_minor + ${added}` })
    .where('source_vendor', '=', command.source.vendor)
    .where('source_store_id', '=', command.source.storeId)
    .where('transaction_id', '=', command.transactionId)
    .returning(['id', 'member_id', 'total_minor', 'points_earned', 'points_reversed', 'refunded_minor'])
    .executeTakeFirst();
}

async function reverseKnownSale(trx: Tx, command: ReverseCommand, refundRowId: string, now: string): Promise<Outcome | null> {
  const sale = await applyToSale(trx, command);
  if (!sale) return null;
  const total = Number(sale.total_minor);
  const earned = Number(sale.points_earned);
  const cumulative = Math.min(Number(sale.refunded_minor), total);
  const previous = Math.min(Number(sale.refunded_minor) - (command.amountMinor ?? total), total);
  const target = cumulative >= total ? earned : proportion(earned, cumulative, total);
  const reversed = Math.max(0, target - Number(sale.points_reversed));
  if (reversed > 0 && sale.member_id) {
    await trx.updateTable('sales').set({ points_reversed: target }).where('id', '=', sale.id).execute();
    await moveWalletPoints(trx, { memberId: sale.member_id, points: -reversed, kind: 'reverse', refId: refundRowId, now, lifetime: true });
  }
  const completes = previous < total && cumulative >= total;
  const ref: SaleRef = {
    merchantId: command.merchantId,
    source: command.source,
    transactionId: command.transactionId,
    memberId: sale.member_id,
  };
  const { points, restored } = completes ? await recreditRedemptions(trx, ref, now) : { points: 0, restored: 0 };
  const acted = (earned > 0 && previous < total) || points > 0 || restored > 0;
  return { status: acted ? 'REVERSED' : 'NOTHING_TO_REVERSE', reversed, recredited: points, saleId: sale.id, memberId: sale.member_id };
}

async function reverseUnknownSale(trx: Tx, command: ReverseCommand, now: string): Promise<Outcome> {
  const ref: SaleRef = { merchantId: command.merchantId, source: command.source, transactionId: command.transactionId, memberId: null };
  const { points, restored } = await recreditRedemptions(trx, ref, now);
  const memberRow = await trx
    .selectFrom('redemptions')
    .select('member_id')
    .where('source_vendor', '=', command.source.vendor)
    .where('source_store_id', '=', command.source.storeId)
    .where('external_transaction_id', '=', command.transactionId)
    .executeTakeFirst();
  const acted = points > 0 || restored > 0;
  return {
    status: acted ? 'REVERSED' : 'NOTHING_TO_REVERSE',
    reversed: 0,
    recredited: points,
    saleId: null,
    memberId: acted ? (memberRow?.member_id ?? null) : null,
  };
}

/** Claim the refund's ledger key; false when this (source, refund id) was already recorded. */
async function claimRefund(trx: Tx, command: ReverseCommand, id: string, now: string): Promise<boolean> {
  const row = await trx
    .insertInto('refunds')
    .values({
      id,
      source_vendor: command.source.vendor,
      source_store_id: command.source.storeId,
      refund_id: command.refundId,
      transaction_id: command.transactionId,
      sale_id: null,
      member_id: null,
      amount_minor: command.amountMinor ?? null,
      status: 'PENDING',
      points_reversed: 0,
      points_recredited: 0,
      created_at: now,
      occurred_at: utcTime(command.occurredAt) ?? now,
      withdrawn_at: null,
    })
    .onConflict((oc) => oc.columns(['source_vendor', 'source_store_id', 'refund_id']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** The sale's total when the sale is known: what an omitted refund amount stands for. */
async function saleTotal(trx: Tx, command: ReverseCommand): Promise<number | null> {
  const sale = await trx
    .selectFrom('sales')
    .select('total_minor')
    .where('source_vendor', '=', command.source.vendor)
    .where('source_store_id', '=', command.source.storeId)
    .where('transaction_id', '=', command.transactionId)
    .executeTakeFirst();
  return sale ? Number(sale.total_minor) : null;
}

const spelled = (minor: number | null) =>
  minor === null ? 'a full refund (no amount)' : `a refund of ${fromMinorUnits(minor).toFixed(2)}`;

/**
 * Why a repeat of this refund id is not the refund first recorded under it, or null when it is.
 * Amounts count as what they refund: omitted = the sale's total, and an amount above the total
 * refunds the total. While the sale is unknown an omitted amount cannot be matched with a number.
 */
async function reuseOf(
  trx: Tx,
  command: ReverseCommand,
  row: { transaction_id: string; amount_minor: number | null },
): Promise<string | null> {
  if (row.transaction_id !== command.transactionId) return `a refund of order ${row.transaction_id}`;
  const recorded = row.amount_minor === null ? null : Number(row.amount_minor);
  const asked = command.amountMinor ?? null;
  if (recorded === asked) return null;
  const total = await saleTotal(trx, command);
  if (total === null) {
    return recorded === null || asked === null
      ? `${spelled(recorded)} of this order, which has not reached the service yet, so ${spelled(asked)} cannot be matched with it (retry it as first sent)`
      : 'a refund of this order with another amount';
  }
  const counted = (minor: number | null) => Math.min(minor ?? total, total);
  return counted(recorded) === counted(asked) ? null : 'a refund of this order with another amount';
}

/**
 * A refund id already recorded: the same refund again (same sale, same amount once normalised)
 * answers ALREADY_PROCESSED with the figures it moved then (nothing moves now); the id reused for
 * another sale or amount is refused (400 refund_id_reused): silently answering "done" would hide
 * a refund that was never applied.
 */
async function alreadyProcessed(trx: Tx, command: ReverseCommand): Promise<ReverseResult> {
  const row = await trx
    .selectFrom('refunds')
    .select(['transaction_id', 'amount_minor', 'points_reversed', 'points_recredited', 'member_id', 'status'])
    .where('source_vendor', '=', command.source.vendor)
    .where('source_store_id', '=', command.source.storeId)
    .where('refund_id', '=', command.refundId)
    .executeTakeFirstOrThrow();
  const reuse = await reuseOf(trx, command, row);
  if (reuse)
    throw new EngineError(
      'refund_id_reused',
      `Refund id ${command.refundId} was already used for ${reuse}; nothing was reversed now. Give every refund its own id.`,
    );
  // A reversal given back since (withdraw-refunds.ts) stays given back: a late copy of it moves nothing.
  const withdrawn = row.status === WITHDRAWN;
  return {
    status: 'ALREADY_PROCESSED',
    pointsReversed: withdrawn ? 0 : Number(row.points_reversed),
    pointsReCredited: withdrawn ? 0 : Number(row.points_recredited),
    membershipId: await membershipIdOf(trx, row.member_id),
  };
}

/**
 * Why this refund's amount cannot be compared with its sale, or null when it can: an amount in
 * another currency than the sale's (before the sale arrives: the merchant's) is never read as if
 * it were the same number. No amount (a full refund) or no currency (POST /v1/refund: the sale's)
 * compares nothing.
 */
async function currencyMismatch(trx: Tx, command: ReverseCommand, merchantCurrency: string | null): Promise<string | null> {
  if (merchantCurrency === null || command.amountMinor === undefined || command.currency === undefined) return null;
  const sale = await trx
    .selectFrom('sales')
    .select('currency')
    .where('source_vendor', '=', command.source.vendor)
    .where('source_store_id', '=', command.source.storeId)
    .where('transaction_id', '=', command.transactionId)
    .executeTakeFirst();
  const expected = sale?.currency ?? merchantCurrency;
  if (command.currency === expected) return null;
  const against = sale
    ? `the sale it refunds was in ${expected}`
    : `this merchant's sales are in ${expected} and the sale it refunds has not reached the service yet`;
  return `This refund is in ${command.currency} but ${against}: amounts in different currencies are not compared, so nothing was reversed. Send the refund amount in ${expected} (the same refund id may be used).`;
}

/** Reverse a refunded sale in one transaction (never committed past the deadline), exactly once per (source, refund id). */
export async function reverse(ctx: EngineContext, command: ReverseCommand, options: EngineCallOptions = {}): Promise<ReverseResult> {
  const now = ctx.now();
  const refundRowId = newId();
  // Before the transaction: a settings-cache miss reads through the connection the transaction holds on SQLite.
  const merchantCurrency =
    command.amountMinor !== undefined && command.currency !== undefined
      ? (await ctx.cache.requireMerchant(command.merchantId)).currency
      : null;
  return transactBefore(ctx.db, options.deadline, async (trx) => {
    await lockSale(ctx, trx, command.source, command.transactionId);
    const mismatch = await currencyMismatch(trx, command, merchantCurrency);
    if (mismatch) throw new EngineError('currency_mismatch', mismatch);
    if (!(await claimRefund(trx, command, refundRowId, now))) return alreadyProcessed(trx, command);
    const outcome = (await reverseKnownSale(trx, command, refundRowId, now)) ?? (await reverseUnknownSale(trx, command, now));
    await trx
      .updateTable('refunds')
      .set({
        status: outcome.status,
        points_reversed: outcome.reversed,
        points_recredited: outcome.recredited,
        sale_id: outcome.saleId,
        member_id: outcome.memberId,
      })
      .where('id', '=', refundRowId)
      .execute();
    return {
      status: outcome.status,
      pointsReversed: outcome.reversed,
      pointsReCredited: outcome.recredited,
      membershipId: await membershipIdOf(trx, outcome.memberId),
    };
  });
}
