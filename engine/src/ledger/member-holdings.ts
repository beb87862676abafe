import type { EngineContext, Tx } from './context.js';
import type { MemberHoldings } from '../rules/evaluate-reward.js';
import type { ResolvedMember } from './resolve-member.js';
import { WALLET } from './balances.js';

/** The member's issued rewards and stamp cards (optionally for one reward), as MemberHoldings. */
export async function loadHoldings(db: EngineContext['db'] | Tx, member: ResolvedMember, rewardId?: string): Promise<MemberHoldings> {
  let instanceQuery = db.selectFrom('reward_instances').select(['reward_id', 'status', 'code']).where('member_id', '=', member.id);
  let stampQuery = db
    .selectFrom('balances')
    .select(['reward_id', 'stamps_total', 'cards_completed', 'cards_redeemed'])
    .where('member_id', '=', member.id)
    .where('reward_id', '<>', WALLET);
  if (rewardId !== undefined) {
    instanceQuery = instanceQuery.where('reward_id', '=', rewardId);
    stampQuery = stampQuery.where('reward_id', '=', rewardId);
  }
  const [instanceRows, stampRows] = await Promise.all([instanceQuery.execute(), stampQuery.execute()]);
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
