import type { MerchantSummary } from '@loyalty-gateway/core';
import type { EngineContext } from './context.js';

/** Every merchant with its outlets, ordered by id (two queries, whatever the count). */
export async function listMerchants(ctx: EngineContext): Promise<MerchantSummary[]> {
  const merchants = await ctx.db.selectFrom('merchants').select(['id', 'name', 'currency']).orderBy('id').execute();
  const outlets = await ctx.db.selectFrom('outlets').select(['id', 'merchant_id', 'name']).orderBy('merchant_id').orderBy('id').execute();
  return merchants.map((m) => ({
    id: m.id,
    name: m.name,
    currency: m.currency,
    outlets: outlets.filter((o) => o.merchant_id === m.id).map((o) => ({ id: o.id, name: o.name })),
  }));
}
