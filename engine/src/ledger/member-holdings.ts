import { sql, type Kysely } from 'kysely';
import { preparedQuery } from '@loyalty-gateway/storage';
import type { EngineTables } from '../db/schema.js';
import type { EngineContext, Tx } from './context.js';
import type { MemberHoldings } from '../rules/evaluate-reward.js';
import type { ResolvedMember } from './resolve-member.js';
import { WALLET } from './balances.js';

/** One row of the holdings' read: an issued reward's instance (`status` set) or a stamp card (`status` null). */
interface HoldingRow {
  reward_id: string;
  status: string | null;
  code: string | null;
  stamps_total: number | string | null;
  cards_completed: number | string | null;
  cards_redeemed: number | string | null;
}

/**
 * The member's issued rewards' instances and stamp cards in one statement (UNION ALL), for every
 * reward or (`oneReward`) for the one bound as `rewardId`: one round trip, not two.
 */
function holdingsRead(oneReward: boolean) {
  return preparedQuery((untyped, v: { memberId: string; rewardId: string }) => {
    const db = untyped as Kysely<EngineTables>;
    let instances = db
      .selectFrom('reward_instances')
      .select([
        'reward_id',
        'status',
        'code',
        sql<null>`null`.as('stamps_total'),
        sql<null>`null`.as('cards_completed'),
        sql<null>`null`.as('cards_redeemed'),
      ])
      .where('member_id', '=', v.memberId);
    let stampCards = db
      .selectFrom('balances')
      .select(['reward_id', sql<null>`null`.as('status'), sql<null>`null`.as('code'), 'stamps_total', 'cards_completed', 'cards_redeemed'])
      .where('member_id', '=', v.memberId)
      .where('reward_id', '<>', WALLET);
    if (oneReward) {
      instances = instances.where('reward_id', '=', v.rewardId);
      stampCards = stampCards.where('reward_id', '=', v.rewardId);
    }
    return instances.$castTo<HoldingRow>().unionAll(stampCards.$castTo<HoldingRow>());
  });
}

/**
 * The holdings' read, compiled once and, on PostgreSQL, a named prepared statement: every
 * eligibility and every reward redemption runs it. Built with the query builder at each call it
 * cost the builder's compile per request and, unnamed, the server's parse and plan.
 */
const READS = { allRewards: holdingsRead(false), oneReward: holdingsRead(true) };

/** The member's issued rewards and stamp cards (optionally for one reward), as MemberHoldings. */
export async function loadHoldings(db: EngineContext['db'] | Tx, member: ResolvedMember, rewardId?: string): Promise<MemberHoldings> {
  const read = rewardId === undefined ? READS.allRewards : READS.oneReward;
  const { rows } = await read(db, { memberId: member.id, rewardId: rewardId ?? '' });
  const instances = new Map<string, { available: number; usedCodes: string[] }>();
  const stamps = new Map<string, { total: number; available: number }>();
  for (const row of rows) {
    if (row.status === null) {
      const available = Number(row.cards_completed) - Number(row.cards_redeemed);
      stamps.set(row.reward_id, { total: Number(row.stamps_total), available });
      continue;
    }
    const entry = instances.get(row.reward_id) ?? { available: 0, usedCodes: [] };
    if (row.status === 'available') entry.available += 1;
    else if (row.code) entry.usedCodes.push(row.code);
    instances.set(row.reward_id, entry);
  }
  return { balance: member.balance, lifetimePoints: member.lifetimePoints, instances, stamps };
}
