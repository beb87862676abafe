import type { RedeemCommand } from '@loyalty-gateway/core';
import { sql, type Kysely } from 'kysely';
import { preparedQuery, rawStatement } from '@loyalty-gateway/storage';
import type { Tx } from './context.js';
import { WALLET } from './balances.js';
import type { EngineTables } from '../db/schema.js';
import { redemptionRowValues, underKey, type RedemptionKey, type RedemptionRowValues } from './redeem-store.js';

type PointsRedemption = RedemptionRowValues & { points: number; ledgerId: string };

/**
 * A redemption that costs points (pointsToRedeem, or a POINTS reward) on PostgreSQL, in one round
 * trip instead of three: the conditional debit, the redemption under its key and its ledger entry
 * (data-modifying CTEs, one snapshot). The debit is made only when the balance covers the points
 * and no redemption this transaction can see holds the key; the redemption only when the debit
 * was; the ledger entry only when the redemption was inserted.
 */
const REDEEM_POINTS = preparedQuery((db, v: PointsRedemption) =>
  rawStatement(
    db,
    sql<{ balance: number | string; inserted: boolean }>`with debit as (
        update balances set balance = balance - ${v.points}::bigint
        where member_id = ${v.memberId}::text and reward_id = ${sql.lit(WALLET)} and balance >= ${v.points}::bigint
          and not exists (${underKey((db as Kysely<EngineTables>).selectFrom('redemptions').select(sql.lit(1).as('one')), v)})
        returning balance
      ), redeemed as (
        insert into redemptions (id, merchant_id, outlet_id, source_vendor, source_store_id, external_transaction_id, reward_key,
          member_id, reward_id, points_requested, order_value_minor, points_deducted, balance_after, instance_id, status, created_at)
        select ${v.id}::text, ${v.merchantId}::text, ${v.outletId}::text, ${v.vendor}::text, ${v.storeId}::text, ${v.transactionId}::text,
          ${v.rewardKey}::text, ${v.memberId}::text, ${v.rewardId}::text, ${v.pointsRequested}::bigint, ${v.orderValueMinor}::bigint,
          ${v.points}::bigint, balance, null, 'committed', ${v.now}::text
        from debit
        on conflict (source_vendor, source_store_id, external_transaction_id, reward_key) do nothing
        returning id
      ), entry as (
        insert into ledger_entries (id, member_id, kind, points, ref_id, created_at)
        select ${v.ledgerId}::text, ${v.memberId}::text, 'redeem', -${v.points}::bigint, id, ${v.now}::text from redeemed
      )
      select balance, exists (select 1 from redeemed) as inserted from debit`,
  ),
);

/**
 * What REDEEM_POINTS did: null when nothing was written (the balance falls short, or the key is
 * held by a redemption this transaction sees); `inserted` false when the points were debited but
 * another transaction took the key meanwhile (the caller must roll the debit back).
 */
export async function redeemPoints(
  trx: Tx,
  command: RedeemCommand,
  row: { id: string; key: RedemptionKey; memberId: string; points: number; now: string; ledgerId: string },
): Promise<{ balanceAfter: number; inserted: boolean } | null> {
  const { rows } = await REDEEM_POINTS(trx, { ...redemptionRowValues(command, row), points: row.points, ledgerId: row.ledgerId });
  const found = rows[0];
  return found === undefined ? null : { balanceAfter: Number(found.balance), inserted: found.inserted };
}
