import { createHttpClient } from '@loyalty-gateway/core';
import { pino } from 'pino';
import { createReconcileRunStore, type ReconcileRunStore } from '../reconcile/reconcile-run-store.js';
import type { ReconcileDeps } from '../reconcile/run-reconcile.js';
import { createWebhookPipeline } from '../webhooks/webhook-pipeline.js';
import type { FeaturedGateway } from './featured-gateway.js';

/**
 * What runReconcile needs against a test gateway: its store, a run store on its database, the
 * doors' own exactly-once pipeline (same engine and idempotency cache), a one-attempt HTTP client,
 * and the test's clock (read on every call, so a test moves time by changing what `clock` returns).
 */
export async function reconcileDepsFor(gw: FeaturedGateway, clock: () => number): Promise<ReconcileDeps & { runs: ReconcileRunStore }> {
  return {
    store: gw.store,
    runs: await createReconcileRunStore({ database: gw.database, clock: () => new Date(clock()) }),
    pipeline: createWebhookPipeline({ engine: gw.engine, cache: gw.idempotency, onCacheError: () => {} }),
    http: createHttpClient({ maxAttempts: 1, timeoutMs: 2_000 }),
    reversedOrders: (query) => gw.engine.reversedOrders(query),
    logger: pino({ level: 'silent' }),
    now: () => new Date(clock()),
  };
}
