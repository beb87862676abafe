// One file: the PostgreSQL earn's batch statements (lock and look up, then record) and their one-sale forms share one set of CTEs and row shapes; apart they would drift.
import type { CustomerIdentifier, StampUpdate } from '@loyalty-gateway/core';
import { sql } from 'kysely';
import { preparedQuery, rawStatement } from '@loyalty-gateway/storage';
import { cardProgress } from '../rules/stamps.js';
import type { Tx } from './context.js';
import type { EarnPlan } from './earn-plan.js';
import type { RewardRule } from '../rules/reward-rule.js';
import { lookupKey, notFound, type LookupColumn, type Resolution } from './resolve-member.js';
import { SALE_LOCK_CLASS, saleLockKey } from './sale-lock.js';
import type { MerchantSettings } from './settings-cache.js';
import { MAX_STAMPS, tooManyStamps } from './stamp-limit.js';
import { WALLET } from './balances.js';

/**
 * The earn's statements on PostgreSQL, where each statement is a round trip: the sale's lock with
 * the member's lookup in one, then the sale row, wallet credit, ledger entry, one stamp card and
 * the earlier-refunds probe in one (data-modifying CTEs, one snapshot taken after the lock).
 */

export interface MemberRow {
  id: string | null;
  membership_id: string | null;
  balance: number | null;
  lifetime_points: number | null;
}

/** Per identifier column: take the sale's advisory lock and find the member (one row, nulls when none). */
const LOCK_AND_LOOKUPS = Object.fromEntries(
  (['phone', 'email', 'membership_id', 'external_id'] as const).map((column) => [
    column,
    preparedQuery((db, v: { lockKey: string; merchantId: string; value: string }) =>
      rawStatement(
        db,
        sql<MemberRow>`select m.id, m.membership_id, w.balance, w.lifetime_points
          from (select pg_advisory_xact_lock(${sql.lit(SALE_LOCK_CLASS)}, hashtext(${v.lockKey}))) as locked
          left join (members m join balances w on w.member_id = m.id and w.reward_id = ${sql.lit(WALLET)})
            on m.merchant_id = ${v.merchantId} and m.${sql.ref(column)} = ${v.value}`,
      ),
    ),
  ]),
) as Record<string, (db: Tx, v: { lockKey: string; merchantId: string; value: string }) => Promise<{ rows: MemberRow[] }>>;

const LOCK_ONLY = preparedQuery((db, v: { lockKey: string }) =>
  rawStatement(db, sql`select pg_advisory_xact_lock(${sql.lit(SALE_LOCK_CLASS)}, hashtext(${v.lockKey}))`),
);

/** What an earn's first statement does: its sale's lock and, when the customer can match, the lookup. */
export interface SaleLock {
  lockKey: string;
  merchantId: string;
  /** null: nothing to look up (a walk-in sale, or an identifier that cannot match). */
  column: LookupColumn | null;
  value: string | null;
}

export function saleLock(
  merchant: MerchantSettings,
  customer: CustomerIdentifier | undefined,
  source: { vendor: string; storeId: string },
  transactionId: string,
): SaleLock {
  const lockKey = saleLockKey(source, transactionId);
  if (!customer) return { lockKey, merchantId: merchant.id, column: null, value: null };
  const { column, value } = lookupKey(customer, merchant.defaultCountryCode);
  return { lockKey, merchantId: merchant.id, column: value === null ? null : column, value };
}

/** The customer's resolution from what the lock's statement found (`row`: the member, if any). */
export function resolutionOf(
  merchant: MerchantSettings,
  customer: CustomerIdentifier | undefined,
  lock: SaleLock,
  row: MemberRow | undefined,
): Resolution {
  if (!customer) return { member: null, reason: 'Walk-in sale: no customer on the sale.' };
  if (!row?.id) return { member: null, reason: notFound(customer, lock.value, merchant.defaultCountryCode) };
  return {
    member: { id: row.id, membershipId: row.membership_id!, balance: Number(row.balance), lifetimePoints: Number(row.lifetime_points) },
    reason: null,
  };
}

/**
 * Lock the sale's key (see sale-lock.ts) and resolve the customer in one round trip. The lookup
 * may read a snapshot taken before the lock was granted: members are not what the lock protects.
 */
export async function lockSaleAndResolve(
  trx: Tx,
  merchant: MerchantSettings,
  customer: CustomerIdentifier | undefined,
  lock: SaleLock,
): Promise<Resolution> {
  let row: MemberRow | undefined;
  if (lock.column === null) await LOCK_ONLY(trx, { lockKey: lock.lockKey });
  else
    row = (await LOCK_AND_LOOKUPS[lock.column]!(trx, { lockKey: lock.lockKey, merchantId: lock.merchantId, value: lock.value! })).rows[0];
  return resolutionOf(merchant, customer, lock, row);
}

/** One identifier column's branch of LOCK_ALL's lookup: runs only for the units that name this column. */
const lookupBranch = (column: LookupColumn) =>
  sql`select m.id, m.membership_id, w.balance, w.lifetime_points from members m join balances w on w.member_id = m.id and w.reward_id = ${sql.lit(WALLET)}
    where u.col = ${sql.lit(column)} and m.merchant_id = u.merchant_id and m.${sql.ref(column)} = u.val`;

/**
 * Every unit's sale lock, in the units' order, and each unit's member lookup: one statement for a
 * whole batch (a row per unit). PostgreSQL evaluates the lateral subqueries row by row in the
 * order the units come, so the locks are taken in the batch's order. The units come as one JSON
 * array, not as arrays through unnest: for unnest of a known array the planner estimates the row
 * count from the value, so it kept re-planning this statement for every batch (a custom plan
 * looked cheaper than the generic one) at ~4× the server's CPU of one statement per unit
 * (measured); jsonb_to_recordset's estimate does not depend on the value, so the prepared
 * statement's generic plan is kept.
 */
const LOCK_ALL = preparedQuery((db, v: { units: string }) =>
  rawStatement(
    db,
    sql<MemberRow & { n: number }>`select u.n, f.id, f.membership_id, f.balance, f.lifetime_points
      from jsonb_to_recordset(${v.units}::jsonb) as u(n int, lock_key text, merchant_id text, col text, val text)
      cross join lateral (select pg_advisory_xact_lock(${sql.lit(SALE_LOCK_CLASS)}, hashtext(u.lock_key))) as locked
      left join lateral (
        ${lookupBranch('phone')} union all ${lookupBranch('email')}
        union all ${lookupBranch('membership_id')} union all ${lookupBranch('external_id')}
      ) as f on true
      order by u.n`,
  ),
);

/**
 * What a unit of a batch receives from the batch's first statement (see lockSales). The wallet's
 * balance in `row` is the one read at the batch's start: an earlier unit of the batch may have
 * credited the same member since. An earn reads only who the member is.
 */
export interface LockedSale {
  row: MemberRow | undefined;
}

/**
 * A group-commit batch's first statement on PostgreSQL (transaction-batcher.ts): the sale locks
 * and member lookups of all its earns in one round trip instead of one each.
 */
export async function lockSales(trx: Tx, locks: SaleLock[]): Promise<LockedSale[]> {
  const units = locks.map((l, i) => ({ n: i + 1, lock_key: l.lockKey, merchant_id: l.merchantId, col: l.column, val: l.value }));
  const { rows } = await LOCK_ALL(trx, { units: JSON.stringify(units) });
  const found: LockedSale[] = locks.map(() => ({ row: undefined }));
  for (const row of rows) if (row.id) found[row.n - 1] = { row };
  return found;
}

/** What a row recorded for a source's transaction (a sale, a redemption) is keyed and scoped by. */
export type SourceRowValues = {
  id: string;
  merchantId: string;
  outletId: string;
  vendor: string;
  storeId: string;
  transactionId: string;
};

export type SaleValues = SourceRowValues & {
  eventId: string;
  memberId: string | null;
  totalMinor: number;
  currency: string;
  points: number;
  occurredAt: string;
  now: string;
  fingerprint: string;
  ledgerId: string;
};

type CardValues = {
  rewardId: string;
  stamps: number;
  completedIfNew: number;
  required: number;
};

type RecordRow = {
  inserted: boolean;
  refunded: boolean;
  stamps_total: number | null;
};

/** The sale row, the wallet credit and its ledger entry (when the sale is new and earns points). */
function saleCte(v: SaleValues) {
  return sql`sale as (
      insert into sales (id, merchant_id, outlet_id, source_vendor, source_store_id, transaction_id, event_id, member_id,
        total_minor, currency, points_earned, points_reversed, refunded_minor, occurred_at, created_at, fingerprint)
      values (${v.id}, ${v.merchantId}, ${v.outletId}, ${v.vendor}, ${v.storeId}, ${v.transactionId}, ${v.eventId}, ${v.memberId},
        ${v.totalMinor}, ${v.currency}, ${v.points}, 0, 0, ${v.occurredAt}, ${v.now}, ${v.fingerprint})
      on conflict (source_vendor, source_store_id, transaction_id) do nothing
      returning id
    ), wallet as (
      update balances set balance = balance + ${v.points}::bigint, lifetime_points = lifetime_points + ${v.points}::bigint
      where member_id = ${v.memberId}::text and reward_id = ${sql.lit(WALLET)} and ${v.points}::bigint > 0 and exists (select 1 from sale)
      returning member_id
    ), ledger as (
      insert into ledger_entries (id, member_id, kind, points, ref_id, created_at)
      select ${v.ledgerId}::text, member_id, 'earn', ${v.points}::bigint, ${v.id}::text, ${v.now}::text from wallet
    )`;
}

const refundedProbe = (v: SaleValues) =>
  sql`exists (select 1 from refunds where source_vendor = ${v.vendor} and source_store_id = ${v.storeId} and transaction_id = ${v.transactionId} and status <> 'WITHDRAWN')`;

const RECORD_SALE = preparedQuery((db, v: SaleValues) =>
  rawStatement(
    db,
    sql<RecordRow>`with ${saleCte(v)}
      select exists (select 1 from sale) as inserted, ${refundedProbe(v)} as refunded, null::bigint as stamps_total`,
  ),
);

const RECORD_SALE_WITH_CARD = preparedQuery((db, v: SaleValues & CardValues) => {
  const required = sql`${v.required}::bigint`;
  return rawStatement(
    db,
    sql<RecordRow>`with ${saleCte(v)}, card as (
        insert into balances (member_id, reward_id, stamps_total, cards_completed, cards_redeemed)
        select ${v.memberId}::text, ${v.rewardId}::text, ${v.stamps}::bigint, ${v.completedIfNew}::bigint, 0 where exists (select 1 from sale)
        on conflict (member_id, reward_id) do update set
          stamps_total = balances.stamps_total + excluded.stamps_total,
          cards_completed = balances.cards_completed + (balances.stamps_total + excluded.stamps_total) / ${required} - balances.stamps_total / ${required}
        where balances.stamps_total <= ${MAX_STAMPS} - excluded.stamps_total
        returning stamps_total
      )
      select exists (select 1 from sale) as inserted, ${refundedProbe(v)} as refunded, (select stamps_total from card) as stamps_total`,
  );
});

/**
 * Every new sale of a group-commit batch in one statement (the batch's closing statement, see
 * transaction-batcher.ts BatchClosing), with the effects RECORD_SALE(_WITH_CARD) has for each sale
 * one after the other in the units' order: the sale rows (the first of two with one key wins;
 * ON CONFLICT DO NOTHING decides duplicates as for one sale), one credit per member with the sum of
 * its new sales' points (wallets locked in the units' order first, as units running one after the
 * other would lock them), a ledger entry per sale, one upsert per stamp card with the sum of its
 * stamps (completed cards: floor(after / required) − floor(before / required) summed over the
 * sales is that of the sum), and the refunds probe per sale. A card that would pass MAX_STAMPS
 * returns no row, and the batch runs again one sale at a time (recordSales throws), where the
 * sale that passes it is refused alone.
 */
const RECORD_SALES = preparedQuery((db, v: { units: string }) =>
  rawStatement(
    db,
    sql<RecordRow & { n: number }>`with u as materialized (
        select * from jsonb_to_recordset(${v.units}::jsonb) as u(n int, id text, merchant_id text, outlet_id text, vendor text,
          store_id text, transaction_id text, event_id text, member_id text, total_minor bigint, currency text, points bigint,
          occurred_at text, now text, fingerprint text, ledger_id text, reward_id text, stamps bigint, required bigint)
      ), sale as (
        insert into sales (id, merchant_id, outlet_id, source_vendor, source_store_id, transaction_id, event_id, member_id,
          total_minor, currency, points_earned, points_reversed, refunded_minor, occurred_at, created_at, fingerprint)
        select id, merchant_id, outlet_id, vendor, store_id, transaction_id, event_id, member_id,
          total_minor, currency, points, 0, 0, occurred_at, now, fingerprint
        from u order by n
        on conflict (source_vendor, source_store_id, transaction_id) do nothing
        returning id
      ), ins as materialized (
        select u.* from u join sale on sale.id = u.id
      ), credit as materialized (
        select member_id, sum(points)::bigint as points, min(n) as first from ins
        where member_id is not null and points > 0 group by member_id
      ), locked as materialized (
        select w.member_id from balances w join credit c on c.member_id = w.member_id and w.reward_id = ${sql.lit(WALLET)} order by c.first for update of w
      ), wallet as (
        update balances w set balance = w.balance + c.points, lifetime_points = w.lifetime_points + c.points
        from credit c where w.member_id = c.member_id and w.reward_id = ${sql.lit(WALLET)} and w.member_id in (select member_id from locked)
        returning w.member_id
      ), ledger as (
        insert into ledger_entries (id, member_id, kind, points, ref_id, created_at)
        select i.ledger_id, i.member_id, 'earn', i.points, i.id, i.now from ins i join wallet w on w.member_id = i.member_id
        where i.points > 0
      ), cards as materialized (
        select member_id, reward_id, sum(stamps)::bigint as stamps, min(required) as required, min(n) as first from ins
        where member_id is not null and reward_id is not null group by member_id, reward_id
      ), card as (
        insert into balances (member_id, reward_id, stamps_total, cards_completed, cards_redeemed)
        select member_id, reward_id, stamps, stamps / required, 0 from cards order by first
        on conflict (member_id, reward_id) do update set
          stamps_total = balances.stamps_total + excluded.stamps_total,
          cards_completed = balances.cards_completed
            + (balances.stamps_total + excluded.stamps_total) / (select c.required from cards c where c.member_id = excluded.member_id and c.reward_id = excluded.reward_id)
            - balances.stamps_total / (select c.required from cards c where c.member_id = excluded.member_id and c.reward_id = excluded.reward_id)
        where balances.stamps_total <= ${MAX_STAMPS} - excluded.stamps_total
        returning member_id, reward_id, stamps_total
      )
      select u.n, i.id is not null as inserted,
        exists (select 1 from refunds r where r.source_vendor = u.vendor and r.source_store_id = u.store_id and r.transaction_id = u.transaction_id and r.status <> 'WITHDRAWN') as refunded,
        c.stamps_total
      from u left join ins i on i.n = u.n left join card c on c.member_id = u.member_id and c.reward_id = u.reward_id
      order by u.n`,
  ),
);

/** What recording one sale writes (recordSale, recordSales): the sale and, for a member's sale with one, its stamp card. */
export interface SaleRecord {
  sale: SaleValues;
  card: { reward: RewardRule; stamps: number } | null;
}

export function saleRecord(sale: SaleValues, plan: EarnPlan): SaleRecord {
  return { sale, card: (plan.memberId === null ? undefined : plan.stamps[0]) ?? null };
}

export interface RecordedSale {
  /** False: the sale's key was already recorded (nothing written). */
  inserted: boolean;
  /** Refunds of this sale were recorded before it (apply them, earlier-refunds.ts). */
  refunded: boolean;
  /** The one stamp card's update, when the plan has one card. */
  stampsUpdated: StampUpdate[];
}

/**
 * Record a new sale with at most one stamp card in one statement: the sale row (ON CONFLICT
 * DO NOTHING on its unique key decides duplicates), the wallet credit and ledger entry, the card's
 * stamps and completed cards (as ADD_STAMPS in earn.ts), and whether refunds came first. A card
 * that would pass MAX_STAMPS throws 422, rolling the whole sale back.
 */
export async function recordSale(trx: Tx, record: SaleRecord): Promise<RecordedSale> {
  const { sale: v, card } = record;
  if (!card) {
    const row = (await RECORD_SALE(trx, v)).rows[0]!;
    return { inserted: row.inserted, refunded: row.refunded, stampsUpdated: [] };
  }
  const required = card.reward.stampsRequired!;
  const row = (
    await RECORD_SALE_WITH_CARD(trx, {
      ...v,
      rewardId: card.reward.id,
      stamps: card.stamps,
      completedIfNew: Math.floor(card.stamps / required),
      required,
    })
  ).rows[0]!;
  if (!row.inserted) return { inserted: false, refunded: row.refunded, stampsUpdated: [] };
  if (row.stamps_total === null) throw tooManyStamps(card.reward, card.stamps);
  return { inserted: true, refunded: row.refunded, stampsUpdated: [stampUpdate(card, Number(row.stamps_total))] };
}

/** The card's update as the sale's answer reports it, from its stamps total after the sale. */
function stampUpdate(card: NonNullable<SaleRecord['card']>, total: number): StampUpdate {
  const required = card.reward.stampsRequired!;
  const { current, completedNow } = cardProgress(total, card.stamps, required);
  return { rewardId: card.reward.id, rewardTitle: card.reward.title, current, required, completed: completedNow > 0 };
}

/** Why a batch's sales could not be recorded in one statement (they run again one at a time). */
class NotSetWise extends Error {}

/**
 * Record the sales of a group-commit batch in one statement (RECORD_SALES), each answered as
 * recordSale would have in the batch's order: a card's total after a sale is the card's total
 * after the statement less the stamps of the batch's later new sales on it.
 */
export async function recordSales(trx: Tx, records: SaleRecord[]): Promise<RecordedSale[]> {
  const requiredOf = new Map<string, number>();
  const units = records.map(({ sale: v, card }, i) => {
    if (card) {
      const key = `${v.memberId} ${card.reward.id}`;
      const required = card.reward.stampsRequired!;
      // The card's size changed between two of the batch's sales (the merchant's rewards were
      // replaced meanwhile): one at a time, each sale counts by the size it was planned with.
      if ((requiredOf.get(key) ?? required) !== required) throw new NotSetWise('a stamp card of the batch changed its size');
      requiredOf.set(key, required);
    }
    return {
      n: i + 1,
      id: v.id,
      merchant_id: v.merchantId,
      outlet_id: v.outletId,
      vendor: v.vendor,
      store_id: v.storeId,
      transaction_id: v.transactionId,
      event_id: v.eventId,
      member_id: v.memberId,
      total_minor: v.totalMinor,
      currency: v.currency,
      points: v.points,
      occurred_at: v.occurredAt,
      now: v.now,
      fingerprint: v.fingerprint,
      ledger_id: v.ledgerId,
      reward_id: card ? card.reward.id : null,
      stamps: card ? card.stamps : null,
      required: card ? card.reward.stampsRequired! : null,
    };
  });
  const { rows } = await RECORD_SALES(trx, { units: JSON.stringify(units) });
  const recorded: RecordedSale[] = new Array<RecordedSale>(records.length);
  const later = new Map<string, number>(); // per card: the stamps of the batch's later new sales
  for (let i = records.length - 1; i >= 0; i--) {
    const row = rows[i]!;
    const { sale: v, card } = records[i]!;
    if (!row.inserted || !card) {
      recorded[i] = { inserted: row.inserted, refunded: row.refunded, stampsUpdated: [] };
      continue;
    }
    if (row.stamps_total === null) throw new NotSetWise(`stamp card ${card.reward.id} would pass ${MAX_STAMPS} stamps`);
    const key = `${v.memberId} ${card.reward.id}`;
    const after = later.get(key) ?? 0;
    later.set(key, after + card.stamps);
    recorded[i] = { inserted: true, refunded: row.refunded, stampsUpdated: [stampUpdate(card, Number(row.stamps_total) - after)] };
  }
  return recorded;
}
