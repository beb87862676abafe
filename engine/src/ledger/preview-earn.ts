import type { EarnCommand, EarnOutcome, EngineCallOptions } from '@loyalty-gateway/core';
import type { EngineContext } from './context.js';
import { earn } from './earn.js';
import type { Rehearse } from './rehearsal.js';

/**
 * What `earn` would answer for this sale now, with nothing committed: the earn itself (earn.ts:
 * the member's resolution, the plan of earn-plan.ts, the sale key's duplicate and conflict check,
 * the stamp cards' statement, used codes and the refunds that came first), run in a transaction
 * that is always rolled back (rehearsal.ts) instead of as a unit of the group commit. One path: a
 * rule changed in the earn is previewed as changed, and a sale the earn refuses (a stamp card past
 * its limit) is refused here with the same error.
 *
 * Not a read-only re-computation: the earn's answer comes from what its statements return (the
 * stamp card's total after the upsert, the refunds applied with it, the conflict's first time), so
 * computing it without them would be a second implementation to keep in step.
 */
export function previewEarn(
  ctx: EngineContext,
  rehearse: Rehearse,
  command: EarnCommand,
  options: EngineCallOptions = {},
): Promise<EarnOutcome> {
  return earn({ ...ctx, atomically: (work, deadline) => rehearse((trx) => work(trx), deadline) }, command, options);
}
