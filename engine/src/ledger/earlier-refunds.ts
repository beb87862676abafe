import { fromMinorUnits, type EarnCommand } from '@loyalty-gateway/core';
import { preparedQuery } from '@loyalty-gateway/storage';
import { proportion } from '../rules/earn-rate.js';
import { formatPoints } from '../rules/format-money.js';
import type { Tx } from './context.js';
import { WITHDRAWN } from './refund-status.js';
import { moveWalletPoints, recreditRedemptions } from './reverse-recredit.js';

/** What the refunds recorded before their sale took back when the sale arrived. */
export interface EarlierRefunds {
  /** Points of this sale's earn reversed at once (never more than it earned). */
  reversed: number;
  /** Points of redemptions against the order re-credited at once. */
  recredited: number;
  /** For the sale's WebhookResult; null when nothing moved. */
  warning: string | null;
}

// Every new sale asks (an index on the refund's sale key makes it one lookup): compiled once.
const REFUNDS_OF_SALE = preparedQuery((db, v: { vendor: string; storeId: string; transactionId: string }) =>
  db
    .selectFrom('refunds')
    .select(['id', 'refund_id', 'amount_minor'])
    .where('source_vendor', '=', v.vendor)
    .where('source_store_id', '=', v.storeId)
    .where('transaction_id', '=', v.transactionId)
    .where('status', '<>', WITHDRAWN)
    .orderBy('created_at')
    .orderBy('id'),
);

export interface NewSale {
  command: EarnCommand;
  saleId: string;
  memberId: string | null;
  /** Points this sale earned (before any refund). */
  earned: number;
  /** The merchant's currency: the one a refund's amount was checked against before its sale arrived. */
  merchantCurrency: string;
  now: string;
}

/** "refund R-1", "refunds R-1, R-2 and 3 more". */
function refundNames(ids: string[]): string {
  const shown = ids.slice(0, 3).join(', ');
  return ids.length === 1 ? `refund ${shown}` : `refunds ${shown}${ids.length > 3 ? ` and ${ids.length - 3} more` : ''}`;
}

/** "refund r-1 of 40.00 USD was not applied: …" for refunds whose amount is in another currency than the sale. */
function notAppliedWarning(
  skipped: Array<{ refund_id: string; amount_minor: number | null }>,
  merchantCurrency: string,
  saleCurrency: string,
): string | null {
  if (skipped.length === 0) return null;
  const names = skipped
    .slice(0, 3)
    .map((r) => `refund ${r.refund_id} of ${fromMinorUnits(Number(r.amount_minor)).toFixed(2)} ${merchantCurrency}`);
  const more = skipped.length > 3 ? ` and ${skipped.length - 3} more` : '';
  return `${names.join(', ')}${more} ${skipped.length === 1 ? 'was' : 'were'} not applied: the sale is in ${saleCurrency}, and amounts in different currencies are not compared.`;
}

function warningFor(ids: string[], complete: boolean, earned: number, reversed: number, recredited: number): string | null {
  if (reversed === 0 && recredited === 0) return null;
  const parts = [
    `${complete ? 'This order was refunded' : 'Part of this order was refunded'} before the sale arrived (${refundNames(ids)}):`,
  ];
  if (reversed > 0)
    parts.push(
      reversed === earned
        ? `the ${formatPoints(earned)} it earned were reversed at once.`
        : `${reversed} of the ${formatPoints(earned)} it earned were reversed at once.`,
    );
  if (recredited > 0) parts.push(`${formatPoints(recredited)} redeemed against it ${recredited === 1 ? 'was' : 'were'} re-credited.`);
  return parts.join(' ');
}

/**
 * A sale arriving after refunds of it (same vendor, store and transaction id; a refund of a sale
 * the engine had not seen answered NOTHING_TO_REVERSE) honours them in its own transaction, as if
 * they had arrived after it: in the order they were recorded, on the cumulative amount (an omitted
 * amount is the sale's total), each reversing its proportional share, never more than the sale
 * earned; the one that completes the refund re-credits what is still committed against the order
 * (redemptions those refunds already re-credited are not re-credited again) and gives back the
 * reward codes this sale used. Stamps are kept, as on any refund. Refunds withdrawn before the sale
 * arrived (withdraw-refunds.ts) do not count. Each reversal's ledger entry
 * names its refund. Null (one indexed lookup, nothing written) when no refund came first.
 */
export async function applyEarlierRefunds(trx: Tx, sale: NewSale): Promise<EarlierRefunds | null> {
  const { command, earned } = sale;
  const key = { vendor: command.source.vendor, storeId: command.source.storeId, transactionId: command.transaction.id };
  const { rows: recorded } = await REFUNDS_OF_SALE(trx, key);
  if (recorded.length === 0) return null;
  // Their amounts were checked against the merchant's currency: a sale in another currency cannot
  // compare them with its total. Full refunds (no amount) compare nothing and still apply.
  const comparable = command.transaction.currency === sale.merchantCurrency;
  const rows = comparable ? recorded : recorded.filter((r) => r.amount_minor === null);
  const skipped = notAppliedWarning(
    comparable ? [] : recorded.filter((r) => r.amount_minor !== null),
    sale.merchantCurrency,
    command.transaction.currency,
  );
  const total = command.transaction.totalMinor;
  let cumulative = 0;
  let target = 0;
  for (const refund of rows) {
    cumulative += refund.amount_minor === null ? total : Number(refund.amount_minor);
    const next = cumulative >= total ? earned : proportion(earned, cumulative, total);
    if (next > target && sale.memberId) {
      await moveWalletPoints(trx, {
        memberId: sale.memberId,
        points: target - next,
        kind: 'reverse',
        refId: refund.id,
        now: sale.now,
        lifetime: true,
      });
    }
    target = Math.max(target, next);
  }
  await trx.updateTable('sales').set({ refunded_minor: cumulative, points_reversed: target }).where('id', '=', sale.saleId).execute();
  await trx
    .updateTable('refunds')
    .set({ sale_id: sale.saleId })
    .where('source_vendor', '=', key.vendor)
    .where('source_store_id', '=', key.storeId)
    .where('transaction_id', '=', key.transactionId)
    .execute();
  const complete = cumulative >= total;
  const ref = { merchantId: command.merchantId, source: command.source, transactionId: command.transaction.id, memberId: sale.memberId };
  const { points } = complete ? await recreditRedemptions(trx, ref, sale.now) : { points: 0 };
  const applied = warningFor(
    rows.map((r) => r.refund_id),
    complete,
    earned,
    target,
    points,
  );
  return { reversed: target, recredited: points, warning: [applied, skipped].filter((w) => w !== null).join(' ') || null };
}
