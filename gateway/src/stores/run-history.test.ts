import { describe, expect, it } from 'vitest';
import { createReconcileRunStore } from '../reconcile/reconcile-run-store.js';
import { createCatalogRunStore } from './catalog-run-store.js';
import { openTestStore } from '../testing/open-test-store.js';
import { startRunHistoryPruning } from './run-history.js';

const DAY = 24 * 60 * 60 * 1000;

describe('the run history pruning (GATEWAY_RUNS_DAYS)', () => {
  it('stop() ends a pruning under way instead of waiting for it (a graceful stop within its 10 s)', async () => {
    const signals: AbortSignal[] = [];
    const endless = (_before: Date, signal?: AbortSignal) =>
      new Promise<number>((resolve) => {
        signals.push(signal!);
        signal!.addEventListener('abort', () => resolve(7));
      });
    const lines: string[] = [];
    const log = { info: (_o: object, m: string) => lines.push(m), warn: (_o: object, m: string) => lines.push(m) };
    const pruning = startRunHistoryPruning({ catalog: { prune: endless }, reconcile: { prune: endless }, days: 30, log });
    await expect.poll(() => signals.length).toBe(1);
    const started = Date.now();
    await pruning.stop();
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(signals).toHaveLength(1); // the reconciliation runs' pruning was not started once stopping
    expect(lines).toEqual(['run history pruned']);
  });

  it('prunes at start and then every period, logs what it deleted, and logs a failure instead of throwing', async () => {
    const t = await openTestStore('sqlite');
    const catalog = await createCatalogRunStore({ database: t.database, clock: t.clock.now });
    const reconcile = await createReconcileRunStore({ database: t.database, clock: t.clock.now });
    const pull = async () => {
      const claim = await catalog.claim({ vendor: 'clover', connectionId: 'c1', trigger: 'manual' });
      if (claim.claimed) await catalog.finish(claim.run.id, { status: 'succeeded' });
    };
    await pull();
    await pull();
    const failed = await reconcile.claim({
      vendor: 'clover',
      connectionId: 'c1',
      trigger: 'manual',
      since: t.clock.now(),
      until: t.clock.now(),
    });
    await reconcile.finish(failed!.id, { pages: 0, found: 0, recovered: 0, duplicates: 0, failed: 0, status: 'failed', error: 'down' });
    t.clock.advance(31 * DAY);
    await pull();

    const lines: Array<{ level: string; object: Record<string, unknown>; message: string }> = [];
    const log = {
      info: (object: object, message: string) => lines.push({ level: 'info', object: object as Record<string, unknown>, message }),
      warn: (object: object, message: string) => lines.push({ level: 'warn', object: object as Record<string, unknown>, message }),
    };
    const pruning = startRunHistoryPruning({ catalog, reconcile, days: 30, log, clock: t.clock.now, everyMs: 20 });
    try {
      // The pruning at start (chained before this one) deleted the three old runs; this one finds nothing.
      expect(await pruning.prune()).toEqual({ catalog: 0, reconcile: 0 });
      expect(lines).toEqual([{ level: 'info', object: { catalog: 2, reconcile: 1, days: 30 }, message: 'run history pruned' }]);
      expect((await catalog.list()).length).toBe(1);

      // The next period's pruning takes what has aged since.
      t.clock.advance(31 * DAY);
      await expect.poll(() => lines.length, { timeout: 2_000 }).toBe(2);
      expect(lines[1]).toMatchObject({ object: { catalog: 1, reconcile: 0 } });

      await t.close();
      expect(await pruning.prune()).toBeNull();
      expect(lines.at(-1)).toMatchObject({ level: 'warn', message: 'run history pruning failed; retried in an hour' });
    } finally {
      await pruning.stop();
      await t.close().catch(() => undefined);
    }
  });
});
