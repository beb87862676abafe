import { newId } from './new-id.js';
import { sql } from 'kysely';
import type { Tx } from './context.js';
import { WALLET } from './balances.js';

export interface SaleRef {
  merchantId: string;
  source: { vendor: string; storeId: string };
  transactionId: string;
  /** The sale's member, when the sale is known and had one. */
  memberId: string | null;
}

/** Add (or with a negative number, remove) points and write the matching ledger entry. */
export async function moveWalletPoints(
  trx: Tx,
  entry: {
    memberId: string;
    points: number;
    kind: 'reverse' | 'recredit' | 'withdraw' | 'redebit';
    refId: string;
    now: string;
    lifetime: boolean;
  },
): Promise<void> {
  await trx
    .updateTable('balances')
    .set(
      entry.lifetime
        ? { balance: sql`balance + ${entry.points}`, lifetime_points: sql`lifetime_points + ${entry.points}` }
        : { balance: sql`balance + ${entry.points}` },
    )
    .where('member_id', '=', entry.memberId)
    .where('reward_id', '=', WALLET)
    .execute();
  await trx
    .insertInto('ledger_entries')
    .values({ id: newId(), member_id: entry.memberId, kind: entry.kind, points: entry.points, ref_id: entry.refId, created_at: entry.now })
    .execute();
}

async function restoreInstance(trx: Tx, instanceId: string): Promise<number> {
  const result = await trx
    .updateTable('reward_instances')
    .set({ status: 'available', used_transaction_id: null, used_at: null })
    .where('id', '=', instanceId)
    .where('status', '=', 'used')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Give a redeemed stamp card back (the card the redemption took). */
async function restoreStampCard(trx: Tx, memberId: string, rewardId: string): Promise<number> {
  const result = await trx
    .updateTable('balances')
    .set({ cards_redeemed: sql`cards_redeemed - 1` })
    .where('member_id', '=', memberId)
    .where('reward_id', '=', rewardId)
    .where('cards_redeemed', '>', 0)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** The redemptions made against the sale's order that are in `status` (committed, or reversed by a re-credit), with their reward's type. */
function redemptionsOf(trx: Tx, sale: SaleRef, status: 'committed' | 'reversed') {
  return trx
    .selectFrom('redemptions')
    .leftJoin('rewards', 'rewards.id', 'redemptions.reward_id')
    .select([
      'redemptions.id',
      'redemptions.member_id',
      'redemptions.points_deducted',
      'redemptions.instance_id',
      'redemptions.reward_id',
      'rewards.type as reward_type',
    ])
    .where('redemptions.source_vendor', '=', sale.source.vendor)
    .where('redemptions.source_store_id', '=', sale.source.storeId)
    .where('redemptions.external_transaction_id', '=', sale.transactionId)
    .where('redemptions.status', '=', status)
    .execute();
}

/**
 * Undo every committed redemption made against the sale: points go back to the wallet (a
 * `recredit` ledger entry each), consumed stamp cards or issued rewards become available again.
 * Rewards whose codes the sale itself reported as used are restored too. Returns the points
 * re-credited and how many rewards were restored.
 */
export async function recreditRedemptions(trx: Tx, sale: SaleRef, now: string): Promise<{ points: number; restored: number }> {
  const redemptions = await redemptionsOf(trx, sale, 'committed');
  let points = 0;
  let restored = 0;
  for (const r of redemptions) {
    const claimed = await trx
      .updateTable('redemptions')
      .set({ status: 'reversed' })
      .where('id', '=', r.id)
      .where('status', '=', 'committed')
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) === 0) continue;
    const deducted = Number(r.points_deducted);
    if (deducted > 0) {
      // A redemption re-credited again after a withdrawal took it back names that round (unique ledger key).
      const round = await redebitRounds(trx, r.member_id, r.id);
      const refId = round === 0 ? r.id : `${r.id}:${round}`;
      await moveWalletPoints(trx, { memberId: r.member_id, points: deducted, kind: 'recredit', refId, now, lifetime: false });
    }
    if (r.instance_id) restored += await restoreInstance(trx, r.instance_id);
    else if (r.reward_type === 'STAMP' && r.reward_id) restored += await restoreStampCard(trx, r.member_id, r.reward_id);
    points += deducted;
  }
  if (sale.memberId) restored += await restoreSaleCodes(trx, sale, sale.memberId);
  return { points, restored };
}

/** Issued codes the sale reported (marked used by this transaction at earn) become available again. */
async function restoreSaleCodes(trx: Tx, sale: SaleRef, memberId: string): Promise<number> {
  const result = await trx
    .updateTable('reward_instances')
    .set({ status: 'available', used_transaction_id: null, used_at: null })
    .where('merchant_id', '=', sale.merchantId)
    .where('member_id', '=', memberId)
    .where('origin', '=', 'issued_code')
    .where('used_transaction_id', '=', sale.transactionId)
    .where('status', '=', 'used')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** How many times this redemption's re-credit was taken back (`redebit` entries `<id>:1`, `<id>:2`, …). */
async function redebitRounds(trx: Tx, memberId: string, redemptionId: string): Promise<number> {
  const row = await trx
    .selectFrom('ledger_entries')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('kind', '=', 'redebit')
    .where('member_id', '=', memberId)
    .where('ref_id', '>=', `${redemptionId}:`)
    .where('ref_id', '<', `${redemptionId};`)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/**
 * The reverse of recreditRedemptions, when a sale is no longer fully refunded (a refund that
 * completed it was withdrawn): each redemption re-credited against the order is committed again,
 * its points taken back (a `redebit` entry; the wallet may go below zero, as on any reversal of
 * points already spent) and the reward it had consumed consumed again while it is still available.
 * Reward codes the sale itself used, given back on the full refund, stay available: their link to
 * the order was not kept. Returns the points taken back.
 */
export async function undoRecredits(trx: Tx, sale: SaleRef, now: string): Promise<number> {
  const redemptions = await redemptionsOf(trx, sale, 'reversed');
  let points = 0;
  for (const r of redemptions) {
    const claimed = await trx
      .updateTable('redemptions')
      .set({ status: 'committed' })
      .where('id', '=', r.id)
      .where('status', '=', 'reversed')
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) === 0) continue;
    const deducted = Number(r.points_deducted);
    if (deducted > 0) {
      const round = (await redebitRounds(trx, r.member_id, r.id)) + 1;
      await moveWalletPoints(trx, {
        memberId: r.member_id,
        points: -deducted,
        kind: 'redebit',
        refId: `${r.id}:${round}`,
        now,
        lifetime: false,
      });
    }
    if (r.instance_id) await consumeInstance(trx, r.instance_id, sale.transactionId, now);
    else if (r.reward_type === 'STAMP' && r.reward_id) await consumeStampCard(trx, r.member_id, r.reward_id);
    points += deducted;
  }
  return points;
}

async function consumeInstance(trx: Tx, instanceId: string, transactionId: string, now: string): Promise<void> {
  await trx
    .updateTable('reward_instances')
    .set({ status: 'used', used_transaction_id: transactionId, used_at: now })
    .where('id', '=', instanceId)
    .where('status', '=', 'available')
    .execute();
}

async function consumeStampCard(trx: Tx, memberId: string, rewardId: string): Promise<void> {
  await trx
    .updateTable('balances')
    .set({ cards_redeemed: sql`cards_redeemed + 1` })
    .where('member_id', '=', memberId)
    .where('reward_id', '=', rewardId)
    .whereRef('cards_completed', '>', 'cards_redeemed')
    .execute();
}
