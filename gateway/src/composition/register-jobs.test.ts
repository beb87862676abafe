import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createDeliveryJournal, type DeliveryJournal } from '../journal/index.js';
import { createCatalogRunStore, createGatewayStore } from '../stores/index.js';
import { createReconcileRunStore } from '../reconcile/reconcile-run-store.js';
import { buildSeed } from '../testing/seed-builder.js';
import { TEST_CONFIG, createTestContainer } from '../testing/test-container.js';
import { closeContainer, open, provide, resource } from './index.js';
import { registerJobs } from './register-jobs.js';
import { TOKENS } from './tokens.js';

const quiet = pino({ level: 'silent' });
const featuredSeed = () =>
  buildSeed({ vendors: [{ slug: 'shopify', name: 'Shopify', tier: 'featured', settings: { appSecret: 'shopify-app-secret-value' } }] });

describe('registerJobs: the background jobs', () => {
  it('a start-up that fails after polling and the scheduler began: closing the container stops both, so neither keeps reading a store it then closes', async () => {
    const c = createTestContainer({ database: 'sqlite', seedDocument: featuredSeed(), logger: quiet });
    registerJobs(c, { ...TEST_CONFIG, GATEWAY_SCHEDULER: 'on' });
    let lists = 0;
    // A vendor whose settings cannot be read (another master key, a damaged row): the start-up report throws.
    provide(
      c,
      TOKENS.store,
      resource(
        'gateway store',
        async (r) => {
          const store = await createGatewayStore({
            database: await open(r, TOKENS.gatewayDatabase),
            masterKey: await open(r, TOKENS.masterKey),
          });
          return Object.assign(Object.create(store) as typeof store, {
            listVendors: () => ((lists += 1), store.listVendors()),
            getVendor: async (slug: string) => {
              if (slug === 'shopify') throw new Error('settings cannot be decrypted');
              return store.getVendor(slug);
            },
          });
        },
        (store) => store.close(),
      ),
    );
    try {
      await expect(open(c, TOKENS.backgroundJobs)).rejects.toThrow('settings cannot be decrypted');
      expect(await open(c, TOKENS.schedules)).not.toBeNull(); // the scheduler had begun
    } finally {
      await closeContainer(c);
    }
    const after = lists;
    await new Promise((resolve) => setTimeout(resolve, 5_500)); // past the 5 s poll interval
    expect(lists).toBe(after);
  }, 15_000);

  it("the run history's pruning deletes on the journal's connection (on SQLite its writer thread, off the event loop): the runs past GATEWAY_RUNS_DAYS go at start", async () => {
    const c = createTestContainer({ database: 'sqlite', seedDocument: buildSeed(), logger: quiet });
    const statements: string[] = [];
    provide(
      c,
      TOKENS.journal,
      resource(
        'delivery journal',
        async (r) => {
          const journal = await createDeliveryJournal({
            database: await open(r, TOKENS.gatewayDatabase),
            masterKey: await open(r, TOKENS.masterKey),
          });
          return Object.assign(Object.create(journal) as DeliveryJournal, {
            runStatement: (query: Parameters<DeliveryJournal['runStatement']>[0]) => {
              statements.push(query.sql);
              return journal.runStatement(query);
            },
          });
        },
        (journal) => journal.close(),
      ),
    );
    try {
      const database = await open(c, TOKENS.gatewayDatabase);
      const old = () => new Date(Date.now() - 100 * 24 * 60 * 60 * 1000);
      const catalog = await createCatalogRunStore({ database, clock: old });
      const reconcile = await createReconcileRunStore({ database, clock: old });
      for (const connectionId of ['c1', 'c2']) {
        const claim = await catalog.claim({ vendor: 'clover', connectionId, trigger: 'manual' });
        if (claim.claimed) await catalog.finish(claim.run.id, { status: 'succeeded' });
      }
      const failed = await reconcile.claim({ vendor: 'clover', connectionId: 'c1', trigger: 'manual', since: old(), until: old() });
      await reconcile.finish(failed!.id, { pages: 0, found: 0, recovered: 0, duplicates: 0, failed: 0, status: 'failed', error: 'down' });
      await open(c, TOKENS.backgroundJobs);
      // The journal is off in test containers, yet no ledger checkpoint thread: it would have opened the data directory's databases.
      expect(await open(c, TOKENS.ledgerCheckpoints)).toBeNull();
      await expect.poll(async () => (await catalog.list()).length + (await reconcile.list()).length).toBe(0);
      expect(statements.filter((text) => text.startsWith('delete from "gw_catalog_runs"')).length).toBeGreaterThan(0);
      expect(statements.filter((text) => text.startsWith('delete from "gw_reconcile_runs"')).length).toBeGreaterThan(0);
    } finally {
      await closeContainer(c);
    }
  });
});
