/**
 * Giving reversals back: the vendor no longer lists a refund (or void, cancellation) the ledger
 * reversed — a WooCommerce refund the shop manager deleted, a Clover refund voided, a cancelled
 * order reopened — so what it took is returned to the wallet.
 *
 * Decisions:
 * - State, not event: the vendor's order lists the reversals it still has (`keep`) as of its own
 *   modification time (`asOf`); every reversal recorded for the sale under this source that is not
 *   in the list and happened at or before `asOf` is withdrawn. One that happened after `asOf` is
 *   newer than the state being applied (a delivery that arrived late): it is left alone, so an
 *   out-of-order delivery never undoes a newer refund.
 * - Exactly once per reversal: its row flips to WITHDRAWN once (a conditional update under the
 *   sale's lock); a repeat of the same state withdraws nothing, and a late copy of the withdrawn
 *   refund answers ALREADY_PROCESSED and reverses nothing (reverse.ts). Ids stay used.
 * - Points come back as they were taken, on the cumulative refunded amount: after each withdrawal
 *   the sale's reversed points are floor(earned × refunded / total) again (all of them when still
 *   fully refunded), and the difference returns to the wallet (a `withdraw` entry naming the
 *   refund). A sale no longer fully refunded commits its re-credited redemptions again
 *   (reverse-recredit.ts undoRecredits).
 * - A refund recorded before its sale arrived is withdrawn with nothing to move; the sale, when it
 *   comes, no longer applies it (earlier-refunds.ts skips withdrawn refunds).
 */
import type { EngineCallOptions, WithdrawRefundsCommand, WithdrawRefundsResult } from '@loyalty-gateway/core';
import { proportion } from '../rules/earn-rate.js';
import type { EngineContext, Tx } from './context.js';
import { transactBefore } from './deadline.js';
import { WITHDRAWN, utcTime } from './refund-status.js';
import { moveWalletPoints, undoRecredits, type SaleRef } from './reverse-recredit.js';
import { lockSale } from './sale-lock.js';

interface Standing {
  id: string;
  refund_id: string;
  amount_minor: number | null;
  happened: string;
}

/** The sale's reversals still standing (recorded and not withdrawn), oldest first. */
function standingRefunds(trx: Tx, command: WithdrawRefundsCommand): Promise<Standing[]> {
  return trx
    .selectFrom('refunds')
    .select(['id', 'refund_id', 'amount_minor', (eb) => eb.fn.coalesce('occurred_at', 'created_at').as('happened')])
    .where('source_vendor', '=', command.source.vendor)
    .where('source_store_id', '=', command.source.storeId)
    .where('transaction_id', '=', command.transactionId)
    .where('status', '<>', WITHDRAWN)
    .orderBy('created_at')
    .orderBy('id')
    .execute() as Promise<Standing[]>;
}

function saleOf(trx: Tx, command: WithdrawRefundsCommand) {
  return trx
    .selectFrom('sales')
    .select(['id', 'member_id', 'total_minor', 'points_earned', 'points_reversed', 'refunded_minor'])
    .where('source_vendor', '=', command.source.vendor)
    .where('source_store_id', '=', command.source.storeId)
    .where('transaction_id', '=', command.transactionId)
    .executeTakeFirst();
}

async function membershipIdOf(trx: Tx, memberId: string | null): Promise<string> {
  if (!memberId) return '';
  const row = await trx.selectFrom('members').select('membership_id').where('id', '=', memberId).executeTakeFirst();
  return row?.membership_id ?? '';
}

/** Flip one reversal to WITHDRAWN; false when another call already did. */
async function markWithdrawn(trx: Tx, rowId: string, now: string): Promise<boolean> {
  const result = await trx
    .updateTable('refunds')
    .set({ status: WITHDRAWN, withdrawn_at: now })
    .where('id', '=', rowId)
    .where('status', '<>', WITHDRAWN)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Give back the sale's reversals the vendor no longer lists, in one transaction (never committed past the deadline). */
export async function withdrawRefunds(
  ctx: EngineContext,
  command: WithdrawRefundsCommand,
  options: EngineCallOptions = {},
): Promise<WithdrawRefundsResult> {
  const now = ctx.now();
  const asOf = utcTime(command.asOf) ?? now;
  const keep = new Set(command.keep);
  return transactBefore(ctx.db, options.deadline, async (trx) => {
    await lockSale(ctx, trx, command.source, command.transactionId);
    const standing = await standingRefunds(trx, command);
    const gone = standing.filter((r) => !keep.has(r.refund_id) && r.happened <= asOf);
    const sale = await saleOf(trx, command);
    const ref: SaleRef = {
      merchantId: command.merchantId,
      source: command.source,
      transactionId: command.transactionId,
      memberId: sale?.member_id ?? null,
    };
    const withdrawn: string[] = [];
    let restored = 0;
    let reDebited = 0;
    if (sale) {
      const total = Number(sale.total_minor);
      const earned = Number(sale.points_earned);
      let refunded = Number(sale.refunded_minor);
      let reversed = Number(sale.points_reversed);
      const wasComplete = refunded >= total;
      for (const refund of gone) {
        if (!(await markWithdrawn(trx, refund.id, now))) continue;
        withdrawn.push(refund.refund_id);
        refunded = Math.max(0, refunded - (refund.amount_minor === null ? total : Number(refund.amount_minor)));
        const target = refunded >= total ? earned : proportion(earned, refunded, total);
        const back = Math.max(0, reversed - target);
        if (back > 0 && sale.member_id) {
          await moveWalletPoints(trx, { memberId: sale.member_id, points: back, kind: 'withdraw', refId: refund.id, now, lifetime: true });
          restored += back;
        }
        reversed = Math.min(reversed, target);
      }
      if (withdrawn.length > 0) {
        await trx.updateTable('sales').set({ refunded_minor: refunded, points_reversed: reversed }).where('id', '=', sale.id).execute();
        if (wasComplete && refunded < total) reDebited = await undoRecredits(trx, ref, now);
      }
    } else {
      for (const refund of gone) if (await markWithdrawn(trx, refund.id, now)) withdrawn.push(refund.refund_id);
      // A refund of a sale never seen re-credited the order's redemptions at once (reverse.ts): with no reversal left standing, they are taken back.
      if (withdrawn.length > 0 && withdrawn.length === standing.length) reDebited = await undoRecredits(trx, ref, now);
    }
    const memberId = sale?.member_id ?? null;
    return {
      status: withdrawn.length > 0 ? 'WITHDRAWN' : 'NOTHING_TO_WITHDRAW',
      withdrawn,
      pointsRestored: restored,
      pointsReDebited: reDebited,
      membershipId: await membershipIdOf(trx, memberId),
    };
  });
}
