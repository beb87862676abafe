import type { ReversedOrdersQuery } from '@loyalty-gateway/core';
import type { EngineContext } from './context.js';
import { WITHDRAWN, utcTime } from './refund-status.js';

/**
 * The orders of one source with a reversal standing that was recorded since `since`, the newest
 * first (one index range: refunds_source_created_ix). Read-only, outside any transaction.
 */
export async function reversedOrders(ctx: EngineContext, query: ReversedOrdersQuery): Promise<string[]> {
  const rows = await ctx.db
    .selectFrom('refunds')
    .select('transaction_id')
    .select((eb) => eb.fn.max('created_at').as('latest'))
    .where('source_vendor', '=', query.source.vendor)
    .where('source_store_id', '=', query.source.storeId)
    .where('created_at', '>=', utcTime(query.since) ?? query.since)
    .where('status', '<>', WITHDRAWN)
    .groupBy('transaction_id')
    .orderBy('latest', 'desc')
    .orderBy('transaction_id')
    .limit(Math.max(1, Math.min(1000, Math.trunc(query.limit))))
    .execute();
  return rows.map((row) => row.transaction_id);
}
