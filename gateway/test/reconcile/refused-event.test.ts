import { adapter as clover } from '@loyalty-gateway/adapter-clover';
import type { AnyAdapter, FeaturedEnvelope } from '@loyalty-gateway/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConnectionSummary } from '../../src/stores/index.js';
import { openFeaturedGateway, type FeaturedGateway } from '../../src/testing/featured-gateway.js';
import { featuredSeedDocument } from '../../src/testing/featured-seed.js';
import { reconcileDepsFor } from '../../src/testing/reconcile-deps.js';
import { runReconcile, type ReconcileDeps } from '../../src/reconcile/run-reconcile.js';

const dialects = process.env.DATABASE_URL ? (['sqlite', 'postgres'] as const) : (['sqlite'] as const);

/** Clover's adapter with a pull that lists these envelopes (no vendor API here). */
const listing = (envelopes: FeaturedEnvelope[]): AnyAdapter =>
  ({ ...clover, reconcile: { ...clover.reconcile!, pull: async () => ({ envelopes, cursor: null }) } }) as AnyAdapter;

/**
 * An event the ledger refuses (a refund id already used for another order) is the same on every
 * run: like the featured door, which answers it 200 and reports it as skipped, a reconciliation run
 * logs it and goes on, and its checkpoint advances; a failed run would pull the window again forever.
 */
describe.each(dialects)('a reconciliation run meeting an event the ledger refuses (%s)', (dialect) => {
  let gw: FeaturedGateway;
  let connection: ConnectionSummary;
  let deps: ReconcileDeps;

  beforeAll(async () => {
    gw = await openFeaturedGateway({ seedDocument: featuredSeedDocument({}), dialect });
    connection = (await gw.store.listConnections({ vendor: 'clover' }))[0]!;
    const clock = Date.now();
    deps = await reconcileDepsFor(gw, () => clock);
  });
  afterAll(async () => {
    await gw?.close();
  });

  it('succeeds, counting it as found and neither recovered nor failed', async () => {
    const at = new Date().toISOString();
    const refund = (order: string): FeaturedEnvelope => ({
      eventId: `rf-${order}`,
      eventType: 'sale.refunded',
      occurredAt: at,
      store: { id: connection.storeId },
      transaction: { id: order, currency: 'USD' },
      refund: { id: 'R-SHARED', amount: 1 },
    });
    const run = await runReconcile(listing([refund('ORDER-1'), refund('ORDER-2')]), connection, deps, { kind: 'manual' });
    expect(run).toMatchObject({ status: 'succeeded', found: 2, recovered: 1, failed: 0, error: null });
  });
});
