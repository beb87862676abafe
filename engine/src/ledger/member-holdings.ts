import type { Kysely } from 'kysely';
import { preparedQuery } from '@loyalty-gateway/storage';
import type { EngineTables } from '../db/schema.js';
import type { EngineContext, Tx } from './context.js';
import type { MemberHoldings } from '../rules/evaluate-reward.js';
import type { ResolvedMember } from './resolve-member.js';
import { WALLET } from './balances.js';

/** The holdings' two reads, for every reward or (`oneReward`) for the one bound as `rewardId`. */
function holdingsReads(oneReward: boolean) {
  type Slots = { memberId: string; rewardId: string };
  return {
    instances: preparedQuery((db, v: Slots) => {
      const query = (db as Kysely<EngineTables>)
        .selectFrom('reward_instances')
        .select(['reward_id', 'status', 'code'])
        .where('member_id', '=', v.memberId);
      return oneReward ? query.where('reward_id', '=', v.rewardId) : query;
    }),
    stampCards: preparedQuery((db, v: Slots) => {
      const query = (db as Kysely<EngineTables>)
        .selectFrom('balances')
        .select(['reward_id', 'stamps_total', 'cards_completed', 'cards_redeemed'])
        .where('member_id', '=', v.memberId)
        .where('reward_id', '<>', WALLET);
      return oneReward ? query.where('reward_id', '=', v.rewardId) : query;
    }),
  };
}

/**
 * The holdings' reads, each compiled once and, on PostgreSQL, a named prepared statement: every
 * eligibility and every reward redemption runs them. Built with the query builder at each call they
 * cost the builder's compile twice per request and, unnamed, the server's parse and plan.
 */
const READS = { allRewards: holdingsReads(false), oneReward: holdingsReads(true) };

/** The member's issued rewards and stamp cards (optionally for one reward), as MemberHoldings. */
export async function loadHoldings(db: EngineContext['db'] | Tx, member: ResolvedMember, rewardId?: string): Promise<MemberHoldings> {
  const reads = rewardId === undefined ? READS.allRewards : READS.oneReward;
  const values = { memberId: member.id, rewardId: rewardId ?? '' };
  const [{ rows: instanceRows }, { rows: stampRows }] = await Promise.all([reads.instances(db, values), reads.stampCards(db, values)]);
  const instances = new Map<string, { available: number; usedCodes: string[] }>();
  for (const row of instanceRows) {
    const entry = instances.get(row.reward_id) ?? { available: 0, usedCodes: [] };
    if (row.status === 'available') entry.available += 1;
    else if (row.code) entry.usedCodes.push(row.code);
    instances.set(row.reward_id, entry);
  }
  return {
    balance: member.balance,
    lifetimePoints: member.lifetimePoints,
    instances,
    stamps: new Map(
      stampRows.map((r) => [
        r.reward_id,
        { total: Number(r.stamps_total), available: Number(r.cards_completed) - Number(r.cards_redeemed) },
      ]),
    ),
  };
}
