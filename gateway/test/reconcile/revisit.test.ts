import { adapter as clover } from '@loyalty-gateway/adapter-clover';
import type { AnyAdapter, ReconcileWindow } from '@loyalty-gateway/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConnectionSummary } from '../../src/stores/index.js';
import { openFeaturedGateway, type FeaturedGateway } from '../../src/testing/featured-gateway.js';
import { featuredSeedDocument } from '../../src/testing/featured-seed.js';
import { reconcileDepsFor } from '../../src/testing/reconcile-deps.js';
import { runReconcile, type ReconcileDeps } from '../../src/reconcile/run-reconcile.js';

const dialects = process.env.DATABASE_URL ? (['sqlite', 'postgres'] as const) : (['sqlite'] as const);

/** Clover's adapter with a pull that only records the window it is given (no vendor API here). */
function probing(revisitDays: number | undefined, windows: ReconcileWindow[]): AnyAdapter {
  return {
    ...clover,
    reconcile: {
      ...clover.reconcile!,
      ...(revisitDays === undefined ? {} : { revisitDays }),
      pull: async (_ctx, window) => {
        windows.push(window);
        return { envelopes: [], cursor: null };
      },
    },
  } as AnyAdapter;
}

describe.each(dialects)('a reconciliation run reads back the orders with recent reversals when the adapter asks (%s)', (dialect) => {
  let gw: FeaturedGateway;
  let connection: ConnectionSummary;
  let deps: ReconcileDeps;
  let clock = 0;

  beforeAll(async () => {
    gw = await openFeaturedGateway({ seedDocument: featuredSeedDocument({}), dialect });
    connection = (await gw.store.listConnections({ vendor: 'clover' }))[0]!;
    clock = Date.now();
    deps = await reconcileDepsFor(gw, () => clock);
    const scope = {
      merchantId: connection.merchantId,
      outletId: connection.outletId,
      source: { vendor: 'clover', storeId: connection.storeId },
    };
    for (const [order, refund] of [
      ['ORDER-A', 'R-A'],
      ['ORDER-B', 'R-B'],
      ['ORDER-C', 'R-C'],
    ] as const)
      await gw.engine.reverse({ ...scope, transactionId: order, refundId: refund, amountMinor: 100, currency: 'USD' });
    // ORDER-C's only reversal was given back since: nothing of it stands, nothing to read back.
    await gw.engine.withdrawRefunds({ ...scope, transactionId: 'ORDER-C', keep: [], asOf: new Date(clock + 60_000).toISOString() });
  });
  afterAll(async () => {
    await gw?.close();
  });

  it('passes the orders with a reversal standing in `window.revisit`', async () => {
    const windows: ReconcileWindow[] = [];
    const run = await runReconcile(probing(30, windows), connection, deps, { kind: 'manual' });
    expect(run).toMatchObject({ status: 'succeeded' });
    expect(new Set(windows[0]!.revisit)).toEqual(new Set(['ORDER-A', 'ORDER-B']));
  });

  it('leaves reversals older than the adapter asks for, and asks nothing of an adapter that does not declare it', async () => {
    const windows: ReconcileWindow[] = [];
    clock += 31 * 24 * 60 * 60 * 1000;
    await runReconcile(probing(30, windows), connection, deps, { kind: 'manual' });
    await runReconcile(probing(undefined, windows), connection, deps, { kind: 'manual' });
    expect(windows.map((w) => w.revisit)).toEqual([undefined, undefined]);
  });
});
