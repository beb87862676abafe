// One file: the earn statements of one transaction read best in order; splitting them would scatter one SQL flow.
import { newId } from './new-id.js';
import { saleFingerprint, type EarnCommand, type EarnOutcome, type EngineCallOptions, type StampUpdate } from '@loyalty-gateway/core';
import { sql } from 'kysely';
import { preparedQuery } from '@loyalty-gateway/storage';
import { cardProgress } from '../rules/stamps.js';
import { memberKey } from './commit-key.js';
import type { EngineTables } from '../db/schema.js';
import type { EngineContext, Tx } from './context.js';
import { needsCatalog, planEarn, type EarnPlan } from './earn-plan.js';
import { applyEarlierRefunds } from './earlier-refunds.js';
import {
  lockSaleAndResolve,
  recordSale,
  resolutionOf,
  saleLock,
  saleRecord,
  type LockedSale,
  type RecordedSale,
  type SaleValues,
} from './earn-postgres.js';
import { resolveMember } from './resolve-member.js';
import { lockSale } from './sale-lock.js';
import { MAX_STAMPS, tooManyStamps } from './stamp-limit.js';
import { WALLET } from './balances.js';

const EMPTY_CATALOG = new Map<string, string | null>();

/** Codes per IN list (a 1 MiB body can report tens of thousands). */
const CODE_CHUNK = 500;

export const DUPLICATE: EarnOutcome = Object.freeze({
  status: 'duplicate',
  membershipId: '',
  pointsEarned: 0,
  stampsUpdated: [],
  warning: null,
}) as EarnOutcome;

/** A new sale's row: what the earn decides (nothing reversed or refunded yet), its fingerprint always set. */
type SaleRow = Omit<EngineTables['sales'], 'points_reversed' | 'refunded_minor' | 'fingerprint'> & { fingerprint: string };

// The statements every earn runs, compiled once (see preparedQuery).
const INSERT_SALE = preparedQuery((db, v: SaleRow) =>
  db
    .insertInto('sales')
    .values({
      id: v.id,
      merchant_id: v.merchant_id,
      outlet_id: v.outlet_id,
      source_vendor: v.source_vendor,
      source_store_id: v.source_store_id,
      transaction_id: v.transaction_id,
      event_id: v.event_id,
      member_id: v.member_id,
      total_minor: v.total_minor,
      currency: v.currency,
      points_earned: v.points_earned,
      points_reversed: 0,
      refunded_minor: 0,
      occurred_at: v.occurred_at,
      created_at: v.created_at,
      fingerprint: v.fingerprint,
    })
    .onConflict((oc) => oc.columns(['source_vendor', 'source_store_id', 'transaction_id']).doNothing())
    .returning('id'),
);
const CREDIT_WALLET = preparedQuery((db, v: { memberId: string; points: number }) =>
  db
    .updateTable('balances')
    .set({ balance: sql`balance + ${v.points}`, lifetime_points: sql`lifetime_points + ${v.points}` })
    .where('member_id', '=', v.memberId)
    .where('reward_id', '=', WALLET),
);
const INSERT_LEDGER = preparedQuery((db, v: { id: string; memberId: string; points: number; saleId: string; now: string }) =>
  db
    .insertInto('ledger_entries')
    .values({ id: v.id, member_id: v.memberId, kind: 'earn', points: v.points, ref_id: v.saleId, created_at: v.now }),
);

// Only on a duplicate: what the sale first recorded under this key was.
const RECORDED_SALE = preparedQuery((db, v: { vendor: string; storeId: string; transactionId: string }) =>
  db
    .selectFrom('sales')
    .select(['fingerprint', 'created_at'])
    .where('source_vendor', '=', v.vendor)
    .where('source_store_id', '=', v.storeId)
    .where('transaction_id', '=', v.transactionId),
);

/**
 * The answer to a sale whose key is already recorded: a plain duplicate when it is the same sale
 * (or the recorded one predates fingerprints), one naming the conflict when its details differ.
 */
async function duplicateOf(trx: Tx, command: EarnCommand, fingerprint: string): Promise<EarnOutcome> {
  const { rows } = await RECORDED_SALE(trx, {
    vendor: command.source.vendor,
    storeId: command.source.storeId,
    transactionId: command.transaction.id,
  });
  const recorded = rows[0];
  if (!recorded?.fingerprint || recorded.fingerprint === fingerprint) return { ...DUPLICATE, stampsUpdated: [], fingerprint };
  return { ...DUPLICATE, stampsUpdated: [], conflict: { firstReceivedAt: recorded.created_at } };
}

/** Claim the sale's ledger key; false when (source, transaction id) is already recorded. */
async function insertSale(
  trx: Tx,
  command: EarnCommand,
  plan: EarnPlan,
  saleId: string,
  now: string,
  fingerprint: string,
): Promise<boolean> {
  const { rows } = await INSERT_SALE(trx, {
    id: saleId,
    merchant_id: command.merchantId,
    outlet_id: command.outletId,
    source_vendor: command.source.vendor,
    source_store_id: command.source.storeId,
    transaction_id: command.transaction.id,
    event_id: command.eventId,
    member_id: plan.memberId,
    total_minor: command.transaction.totalMinor,
    currency: command.transaction.currency,
    points_earned: plan.points,
    occurred_at: command.occurredAt,
    created_at: now,
    fingerprint,
  });
  return rows.length > 0;
}

async function creditPoints(trx: Tx, memberId: string, points: number, saleId: string, now: string): Promise<void> {
  await CREDIT_WALLET(trx, { memberId, points });
  await INSERT_LEDGER(trx, { id: newId(), memberId, points, saleId, now });
}

/**
 * One card's stamps and the cards they complete, in one statement compiled once: the completed
 * count is floor(after / required) − floor(before / required), integer division in SQL (as
 * cardProgress computes it). Refused (no row back) when the card would pass MAX_STAMPS.
 */
const ADD_STAMPS = preparedQuery(
  (db, v: { memberId: string; rewardId: string; stamps: number; completedIfNew: number; required: number }) => {
    const required = sql`cast(${v.required} as integer)`;
    return db
      .insertInto('balances')
      .values({
        member_id: v.memberId,
        reward_id: v.rewardId,
        stamps_total: v.stamps,
        cards_completed: v.completedIfNew,
        cards_redeemed: 0,
      })
      .onConflict((oc) =>
        oc
          .columns(['member_id', 'reward_id'])
          .doUpdateSet({
            stamps_total: sql`balances.stamps_total + excluded.stamps_total`,
            cards_completed: sql`balances.cards_completed + (balances.stamps_total + excluded.stamps_total) / ${required} - balances.stamps_total / ${required}`,
          })
          .where(sql<boolean>`balances.stamps_total <= ${MAX_STAMPS} - excluded.stamps_total`),
      )
      .returning('stamps_total');
  },
);

/**
 * Add stamps and count the cards they complete: work independent of the quantities (a completed
 * card is a count on the card's `balances` row, not a row of its own), one statement per affected card. Throws 422
 * (rolling the sale back) when a card would pass MAX_STAMPS.
 */
async function addStamps(trx: Tx, plan: EarnPlan): Promise<StampUpdate[]> {
  const memberId = plan.memberId!;
  const updates: StampUpdate[] = [];
  for (const { reward, stamps } of plan.stamps) {
    const required = reward.stampsRequired!;
    const { rows } = await ADD_STAMPS(trx, {
      memberId,
      rewardId: reward.id,
      stamps,
      completedIfNew: Math.floor(stamps / required),
      required,
    });
    if (rows.length === 0) throw tooManyStamps(reward, stamps);
    const { current, completedNow } = cardProgress(Number(rows[0]!.stamps_total), stamps, required);
    updates.push({ rewardId: reward.id, rewardTitle: reward.title, current, required, completed: completedNow > 0 });
  }
  return updates;
}

/** Mark this member's unused issued codes that the sale reports as used by this transaction. */
async function useCodes(trx: Tx, command: EarnCommand, plan: EarnPlan, now: string): Promise<void> {
  // In chunks: a 1 MiB body can report tens of thousands of codes, beyond the bound-parameter limit.
  for (let i = 0; i < plan.codes.length; i += CODE_CHUNK) {
    await trx
      .updateTable('reward_instances')
      .set({ status: 'used', used_transaction_id: command.transaction.id, used_at: now })
      .where('merchant_id', '=', command.merchantId)
      .where('member_id', '=', plan.memberId!)
      .where('code', 'in', plan.codes.slice(i, i + CODE_CHUNK))
      .where('status', '=', 'available')
      .execute();
  }
}

/** The earlier refunds' warning and the sale's own (e.g. earned nothing: another currency), in that order. */
function joinWarnings(earlier: string | null, own: string | null): string | null {
  if (earlier === null) return own;
  return own === null || earlier.includes(own) ? earlier : `${own} ${earlier}`;
}

/**
 * Earn points and stamps for a finalised sale, exactly once per (source, transaction id): the
 * sale row's UNIQUE key decides duplicates, and the sale row, wallet credit, ledger entry, stamp
 * progress, completed-card counts and code usage commit together in one transaction, or not at
 * all once the call's deadline has passed. Refunds of the sale recorded before it arrived are
 * applied in that same transaction; `pointsEarned` is then what the sale leaves in the wallet
 * (earned minus reversed) and `warning` says what those refunds took back.
 */
export async function earn(ctx: EngineContext, command: EarnCommand, options: EngineCallOptions = {}): Promise<EarnOutcome> {
  const merchant = await ctx.cache.requireMerchant(command.merchantId);
  // Before the transaction: a cache miss reads through the engine's connection, which the
  // transaction holds on SQLite.
  const catalog =
    command.transaction.customer && needsCatalog(command, merchant)
      ? await ctx.cache.catalog(command.merchantId, command.outletId)
      : EMPTY_CATALOG;
  const now = ctx.now();
  const saleId = newId();
  const fingerprint = saleFingerprint(command.transaction);
  const postgres = ctx.dialect === 'postgres';
  const { customer } = command.transaction;
  const lock = postgres ? saleLock(merchant, customer, command.source, command.transaction.id) : undefined;
  return ctx.atomically(
    async (trx, opened, defer) => {
      // Inside the transaction: the member and the writes see one snapshot, and on SQLite the lookup
      // joins the group commit's read transaction instead of opening one of its own (measured:
      // ~70 µs a lookup outside under load, a few µs inside). On PostgreSQL the sale's lock is
      // taken in the same round trip, or by the batch's opening statement for all its earns
      // (`opened`, see transaction-batcher.ts).
      const resolution = lock
        ? opened
          ? resolutionOf(merchant, customer, lock, (opened as LockedSale).row)
          : await lockSaleAndResolve(trx, merchant, customer, lock)
        : await resolveMember(trx, merchant, customer);
      const plan = planEarn(command, merchant, resolution, catalog, ctx.codePrefix());
      let stampsUpdated: StampUpdate[];
      let refunded = true;
      if (postgres && plan.stamps.length <= 1) {
        // One round trip for the sale, credit, ledger entry, stamp card and refunds probe; or, in a
        // batch that opened with one statement, part of the batch's one closing statement (defer).
        const record = saleRecord(saleValues(command, plan, saleId, now, fingerprint), plan);
        const recorded = defer ? ((await defer(record)) as RecordedSale) : await recordSale(trx, record);
        if (!recorded.inserted) return duplicateOf(trx, command, fingerprint);
        stampsUpdated = recorded.stampsUpdated;
        refunded = recorded.refunded;
      } else {
        if (!postgres) await lockSale(ctx, trx, command.source, command.transaction.id);
        if (!(await insertSale(trx, command, plan, saleId, now, fingerprint))) return duplicateOf(trx, command, fingerprint);
        if (plan.memberId !== null && plan.points > 0) await creditPoints(trx, plan.memberId, plan.points, saleId, now);
        stampsUpdated = plan.stamps.length > 0 ? await addStamps(trx, plan) : [];
      }
      if (plan.codes.length > 0) await useCodes(trx, command, plan, now);
      // Refunds that arrived before the sale: applied now, in this transaction (never double-earn).
      const earlier = refunded
        ? await applyEarlierRefunds(trx, {
            command,
            saleId,
            memberId: plan.memberId,
            earned: plan.points,
            merchantCurrency: merchant.currency,
            now,
          })
        : null;
      const pointsEarned = plan.points - (earlier?.reversed ?? 0);
      return {
        status: 'processed',
        membershipId: plan.membershipId,
        pointsEarned,
        stampsUpdated,
        warning: joinWarnings(earlier?.warning ?? null, plan.warning),
        fingerprint,
      };
    },
    options.deadline,
    lockKey(command),
    lock,
  );
}

function saleValues(command: EarnCommand, plan: EarnPlan, saleId: string, now: string, fingerprint: string): SaleValues {
  return {
    id: saleId,
    merchantId: command.merchantId,
    outletId: command.outletId,
    vendor: command.source.vendor,
    storeId: command.source.storeId,
    transactionId: command.transaction.id,
    eventId: command.eventId,
    memberId: plan.memberId,
    totalMinor: command.transaction.totalMinor,
    currency: command.transaction.currency,
    points: plan.points,
    occurredAt: command.occurredAt,
    now,
    fingerprint,
    ledgerId: newId(),
  };
}

/**
 * What an earn locks, for the group commit's ordering: the member's wallet, named by the customer
 * identifier (a walk-in sale locks only its own sale key).
 */
function lockKey(command: EarnCommand): string {
  const customer = command.transaction.customer;
  return customer
    ? memberKey(command.merchantId, customer)
    : `s ${command.source.vendor} ${command.source.storeId} ${command.transaction.id}`;
}
