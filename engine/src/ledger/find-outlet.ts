import type { OutletLookup, OutletQuery } from '@loyalty-gateway/core';
import type { EngineContext } from './context.js';

/** Whether the merchant exists and has the outlet: read from the tables (not the settings cache), so a fresh seed counts at once. */
export async function findOutlet(ctx: EngineContext, query: OutletQuery): Promise<OutletLookup> {
  const merchant = await ctx.db.selectFrom('merchants').select('id').where('id', '=', query.merchantId).executeTakeFirst();
  if (!merchant) return { merchant: false, outlet: false };
  const outlet = await ctx.db
    .selectFrom('outlets')
    .select('id')
    .where('merchant_id', '=', query.merchantId)
    .where('id', '=', query.outletId)
    .executeTakeFirst();
  return { merchant: true, outlet: outlet !== undefined };
}
