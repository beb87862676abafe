import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import type { DeliveryJournal } from '../journal/index.js';
import { createReconcileRunStore } from '../reconcile/reconcile-run-store.js';
import { createCatalogRunStore } from '../stores/catalog-run-store.js';
import { quietLogger } from '../testing/catalog-world.js';
import { startOperatorSide } from './start-operator.js';
import { openOperatorApp } from '../testing/open-operator-app.js';

describe('startOperatorSide', () => {
  it('a start-up that fails after polling and the scheduler began stops both, so neither keeps reading a store the caller then closes', async () => {
    const t = await openOperatorApp();
    try {
      let lists = 0;
      // A vendor whose settings cannot be read (another master key, a damaged row): the start-up report throws.
      const store = Object.assign(Object.create(t.store) as typeof t.store, {
        listVendors: () => ((lists += 1), t.store.listVendors()),
        getVendor: async () => {
          throw new Error('settings cannot be decrypted');
        },
      });
      const config = loadConfig({ GATEWAY_ENV: 'development', GATEWAY_SCHEDULER: 'on' });
      await expect(
        startOperatorSide({ config, store, engine: t.engine, database: t.database, notes: t.notes, log: quietLogger() }),
      ).rejects.toThrow('settings cannot be decrypted');
      const after = lists;
      await new Promise((resolve) => setTimeout(resolve, 5_500)); // past the 5 s poll interval
      expect(lists).toBe(after);
    } finally {
      await t.close();
    }
  }, 15_000);

  it("the run history's pruning deletes on the journal's connection (on SQLite its writer thread, off the event loop): the runs past GATEWAY_RUNS_DAYS go at start", async () => {
    const t = await openOperatorApp({ journal: true });
    try {
      const old = () => new Date(Date.now() - 100 * 24 * 60 * 60 * 1000);
      const catalog = await createCatalogRunStore({ database: t.database, clock: old });
      const reconcile = await createReconcileRunStore({ database: t.database, clock: old });
      for (const connectionId of ['c1', 'c2']) {
        const claim = await catalog.claim({ vendor: 'clover', connectionId, trigger: 'manual' });
        if (claim.claimed) await catalog.finish(claim.run.id, { status: 'succeeded' });
      }
      const failed = await reconcile.claim({ vendor: 'clover', connectionId: 'c1', trigger: 'manual', since: old(), until: old() });
      await reconcile.finish(failed!.id, { pages: 0, found: 0, recovered: 0, duplicates: 0, failed: 0, status: 'failed', error: 'down' });
      const statements: string[] = [];
      const journal = t.journal!;
      const watched: DeliveryJournal = Object.assign(Object.create(journal) as DeliveryJournal, {
        runStatement: (query: Parameters<DeliveryJournal['runStatement']>[0]) => {
          statements.push(query.sql);
          return journal.runStatement(query);
        },
      });
      const config = loadConfig({ GATEWAY_ENV: 'development', GATEWAY_SCHEDULER: 'off' });
      const side = await startOperatorSide({
        config,
        store: t.store,
        engine: t.engine,
        database: t.database,
        notes: t.notes,
        log: quietLogger(),
        journal: watched,
      });
      try {
        await expect.poll(async () => (await catalog.list()).length + (await reconcile.list()).length).toBe(0);
        expect(statements.filter((text) => text.startsWith('delete from "gw_catalog_runs"')).length).toBeGreaterThan(0);
        expect(statements.filter((text) => text.startsWith('delete from "gw_reconcile_runs"')).length).toBeGreaterThan(0);
      } finally {
        await side.close();
      }
    } finally {
      await t.close();
    }
  });
});
