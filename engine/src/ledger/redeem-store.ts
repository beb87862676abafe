import { newId } from './new-id.js';
import type { RedeemCommand } from '@loyalty-gateway/core';
import { sql, type ExpressionBuilder, type Kysely, type SelectQueryBuilder } from 'kysely';
import { preparedQuery } from '@loyalty-gateway/storage';
import type { EngineTables } from '../db/schema.js';
import type { SourceRowValues } from './earn-postgres.js';
import type { EngineContext, Tx } from './context.js';
import { WALLET } from './balances.js';

export type RedemptionRow = {
  id: string;
  member_id: string;
  reward_id: string | null;
  points_requested: number | null;
  order_value_minor: number | null;
  points_deducted: number;
  balance_after: number;
  /** committed · reversed (by a refund of the order) */
  status: string;
};

/** A redemption's key: the columns of the `redemptions` UNIQUE key. */
export type RedemptionKey = {
  vendor: string;
  storeId: string;
  transactionId: string;
  rewardKey: string;
};

/** The key a redemption of `command` is recorded under (`rewardKey`: the reward's id, or `points`). */
export const redemptionKey = (command: RedeemCommand, rewardKey: string): RedemptionKey => ({
  vendor: command.source.vendor,
  storeId: command.source.storeId,
  transactionId: command.externalTransactionId,
  rewardKey,
});

/** The reward a redemption under `key` is of: null for points. */
export const rewardIdOf = (key: RedemptionKey): string | null => (key.rewardKey === 'points' ? null : key.rewardKey);

/** `query` narrowed to the redemption under `key` (the one place the key's columns are matched; redeem-postgres.ts embeds it). */
export const underKey = <O>(query: SelectQueryBuilder<EngineTables, 'redemptions', O>, key: RedemptionKey) =>
  query
    .where('source_vendor', '=', key.vendor)
    .where('source_store_id', '=', key.storeId)
    .where('external_transaction_id', '=', key.transactionId)
    .where('reward_key', '=', key.rewardKey);

const FIND_REDEMPTION = preparedQuery((db, key: RedemptionKey) =>
  underKey(
    (db as Kysely<EngineTables>)
      .selectFrom('redemptions')
      .select(['id', 'member_id', 'reward_id', 'points_requested', 'order_value_minor', 'points_deducted', 'balance_after', 'status']),
    key,
  ),
);

/** The redemption already recorded under `key`, if any. */
export async function findRedemption(db: EngineContext['db'] | Tx, key: RedemptionKey): Promise<RedemptionRow | undefined> {
  const { rows } = await FIND_REDEMPTION(db, key);
  return rows[0] as RedemptionRow | undefined;
}

/** Whether no redemption this transaction can see holds `key` (a condition on the wallet's row). */
const keyFree = (db: Kysely<any>, key: RedemptionKey) => (eb: ExpressionBuilder<EngineTables, 'balances'>) =>
  eb.not(eb.exists(underKey((db as Kysely<EngineTables>).selectFrom('redemptions').select(sql.lit(1).as('one')), key)));

type Debit = RedemptionKey & { memberId: string; points: number };

// Compiled once each (the redemption's hot path on SQLite, and a cost-0 reward's on PostgreSQL).
const DEBIT_WALLET = preparedQuery((db, v: Debit) =>
  (db as Kysely<EngineTables>)
    .updateTable('balances')
    .set({ balance: sql`balance - ${v.points}` })
    .where('member_id', '=', v.memberId)
    .where('reward_id', '=', WALLET)
    .where('balance', '>=', v.points)
    .where(keyFree(db, v))
    .returning('balance'),
);
const WALLET_IF_KEY_FREE = preparedQuery((db, v: Omit<Debit, 'points'>) =>
  (db as Kysely<EngineTables>)
    .selectFrom('balances')
    .select('balance')
    .where('member_id', '=', v.memberId)
    .where('reward_id', '=', WALLET)
    .where(keyFree(db, v)),
);

/**
 * The wallet's balance after taking `points` from it (0: the balance as it stands), in one
 * statement; null when the balance does not cover `points`, or when a redemption this transaction
 * can see already holds the key (one earlier in the same group-commit batch, say): nothing changed
 * then. Concurrent redemptions can never overdraw: the debit is conditional on the balance.
 */
export async function debitWallet(trx: Tx, memberId: string, points: number, key: RedemptionKey): Promise<number | null> {
  const { rows } = points > 0 ? await DEBIT_WALLET(trx, { ...key, memberId, points }) : await WALLET_IF_KEY_FREE(trx, { ...key, memberId });
  const row = rows[0] as { balance: number | string } | undefined;
  return row === undefined ? null : Number(row.balance);
}

export async function currentBalance(db: EngineContext['db'] | Tx, memberId: string): Promise<number> {
  const row = await db
    .selectFrom('balances')
    .select('balance')
    .where('member_id', '=', memberId)
    .where('reward_id', '=', WALLET)
    .executeTakeFirstOrThrow();
  return Number(row.balance);
}

/** Take one completed, unredeemed card of a stamp reward; false when the member holds none. */
export async function consumeStampCard(trx: Tx, memberId: string, rewardId: string): Promise<boolean> {
  const result = await trx
    .updateTable('balances')
    .set({ cards_redeemed: sql`cards_redeemed + 1` })
    .where('member_id', '=', memberId)
    .where('reward_id', '=', rewardId)
    .whereRef('cards_completed', '>', 'cards_redeemed')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Mark one available instance of the reward used (oldest first). Each attempt is conditional on
 * the instance still being available, so two concurrent redemptions never consume the same one.
 */
export async function consumeInstance(
  trx: Tx,
  memberId: string,
  rewardId: string,
  transactionId: string,
  now: string,
): Promise<string | null> {
  const candidates = await trx
    .selectFrom('reward_instances')
    .select('id')
    .where('member_id', '=', memberId)
    .where('reward_id', '=', rewardId)
    .where('status', '=', 'available')
    .orderBy('created_at')
    .orderBy('id')
    .limit(5)
    .execute();
  for (const { id } of candidates) {
    const result = await trx
      .updateTable('reward_instances')
      .set({ status: 'used', used_transaction_id: transactionId, used_at: now })
      .where('id', '=', id)
      .where('status', '=', 'available')
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) > 0) return id;
  }
  return null;
}

/** What every redemption's row binds, whichever statement writes it (this insert, redeem-postgres.ts). */
export type RedemptionRowValues = SourceRowValues &
  RedemptionKey & {
    memberId: string;
    rewardId: string | null;
    pointsRequested: number | null;
    orderValueMinor: number | null;
    now: string;
  };

/** A redemption's row values from its command and its own id, key, member and time. */
export const redemptionRowValues = (
  command: RedeemCommand,
  row: { id: string; key: RedemptionKey; memberId: string; now: string },
): RedemptionRowValues => ({
  ...row.key,
  id: row.id,
  merchantId: command.merchantId,
  outletId: command.outletId,
  memberId: row.memberId,
  rewardId: rewardIdOf(row.key),
  pointsRequested: command.pointsToRedeem ?? null,
  orderValueMinor: command.orderValueMinor ?? null,
  now: row.now,
});

type RedemptionValues = RedemptionRowValues & { pointsDeducted: number; balanceAfter: number; instanceId: string | null };

// Compiled once each: every redemption on SQLite writes both (a reward's on PostgreSQL too).
const INSERT_REDEMPTION = preparedQuery((db, v: RedemptionValues) =>
  (db as Kysely<EngineTables>)
    .insertInto('redemptions')
    .values({
      id: v.id,
      merchant_id: v.merchantId,
      outlet_id: v.outletId,
      source_vendor: v.vendor,
      source_store_id: v.storeId,
      external_transaction_id: v.transactionId,
      reward_key: v.rewardKey,
      member_id: v.memberId,
      reward_id: v.rewardId,
      points_requested: v.pointsRequested,
      order_value_minor: v.orderValueMinor,
      points_deducted: v.pointsDeducted,
      balance_after: v.balanceAfter,
      instance_id: v.instanceId,
      status: 'committed',
      created_at: v.now,
    })
    .onConflict((oc) => oc.columns(['source_vendor', 'source_store_id', 'external_transaction_id', 'reward_key']).doNothing())
    .returning('id'),
);
const INSERT_REDEEM_ENTRY = preparedQuery((db, v: { id: string; memberId: string; points: number; refId: string; now: string }) =>
  (db as Kysely<EngineTables>)
    .insertInto('ledger_entries')
    .values({ id: v.id, member_id: v.memberId, kind: 'redeem', points: v.points, ref_id: v.refId, created_at: v.now }),
);

/** Insert the redemption under its UNIQUE key; false when another request holds the key. */
export async function insertRedemption(
  trx: Tx,
  command: RedeemCommand,
  row: {
    id: string;
    key: RedemptionKey;
    memberId: string;
    pointsDeducted: number;
    balanceAfter: number;
    instanceId: string | null;
    now: string;
  },
): Promise<boolean> {
  const { rows } = await INSERT_REDEMPTION(trx, {
    ...redemptionRowValues(command, row),
    pointsDeducted: row.pointsDeducted,
    balanceAfter: row.balanceAfter,
    instanceId: row.instanceId,
  });
  const inserted = rows.length > 0;
  if (inserted && row.pointsDeducted > 0) {
    await INSERT_REDEEM_ENTRY(trx, { id: newId(), memberId: row.memberId, points: -row.pointsDeducted, refId: row.id, now: row.now });
  }
  return inserted;
}
