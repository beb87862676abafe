import { randomBytes } from 'node:crypto';
import type { AnyAdapter } from '@loyalty-gateway/core';
import { adapter as clover } from '@loyalty-gateway/adapter-clover';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { watchVendorChanges } from '../featured/index.js';
import { slotOf, startCatalogScheduler } from './catalog-scheduler.js';
import {
  CLOVER_MERCHANT,
  catalogOf,
  openProcess,
  quietLogger,
  seed,
  sharedDatabase,
  type CatalogProcess,
} from '../testing/catalog-world.js';
import { startCloverItemsServer, type CloverItemsServer } from '../testing/clover-items-server.js';

/** Clover's real pull on a schedule of every second (the six-field form, with seconds). */
const everySecond: AnyAdapter = Object.freeze({ ...clover, catalog: { schedule: '* * * * * *', pull: clover.catalog!.pull } });

describe('catalog scheduler', () => {
  let server: CloverItemsServer;
  let shared: Awaited<ReturnType<typeof sharedDatabase>>;
  let processes: CatalogProcess[];
  beforeEach(async () => {
    server = await startCloverItemsServer(CLOVER_MERCHANT, 5);
    shared = await sharedDatabase('sqlite');
    const masterKey = randomBytes(32);
    processes = [
      await openProcess(shared.open(), masterKey, { adapters: [everySecond] }),
      await openProcess(shared.open(), masterKey, { adapters: [everySecond] }),
    ];
    await seed(processes[0]!, server.baseUrl);
  });
  afterEach(async () => {
    await shared.close();
    await server.close();
  });

  it('slots are the scheduled instant to the second, the same on every process', () => {
    expect(slotOf(new Date('2025-06-01T03:20:00.734Z'))).toBe('2025-06-01T03:20:00.000Z');
  });

  it('two processes on one schedule: each tick pulls once, runs are recorded, stop() ends it', async () => {
    const schedulers = await Promise.all(
      processes.map((p) => startCatalogScheduler({ runner: p.runner, adapters: [everySecond], logger: quietLogger() })),
    );
    expect(schedulers[0]!.jobs).toEqual([{ vendor: 'clover', schedule: '* * * * * *', source: 'adapter' }]);
    const deadline = Date.now() + 5_000;
    while (Date.now() < deadline && (await processes[0]!.runs.list()).filter((r) => r.status === 'succeeded').length < 2) {
      await new Promise((r) => setTimeout(r, 100));
    }
    await Promise.all(schedulers.map((s) => s.stop()));
    const runs = await processes[1]!.runs.list();
    expect(runs.filter((r) => r.status === 'succeeded').length).toBeGreaterThanOrEqual(2);
    for (const run of runs)
      expect(run).toMatchObject({ trigger: 'schedule', slot: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000Z$/) });
    expect(new Set(runs.map((r) => r.slot)).size).toBe(runs.length); // one run per tick across both processes
    expect(server.asked.length).toBe(runs.length); // one page per run: nobody pulled a tick twice
    expect(await catalogOf(processes[0]!.database)).toHaveLength(5);
    const after = runs.length;
    await new Promise((r) => setTimeout(r, 1_200));
    expect((await processes[0]!.runs.list()).length).toBe(after); // stopped: no more ticks
  });

  it("the catalogSchedule setting replaces the adapter's schedule and a settings change reschedules without a restart", async () => {
    const [p] = processes;
    const changes = watchVendorChanges({ store: p!.store, log: quietLogger() });
    await changes.start();
    const scheduler = await startCatalogScheduler({
      runner: p!.runner,
      adapters: [clover],
      logger: quietLogger(),
      store: p!.store,
      changes,
    });
    try {
      expect(scheduler.jobs).toEqual([{ vendor: 'clover', schedule: '20 3 * * *', source: 'adapter' }]);
      const settings = (await p!.store.getVendor('clover'))!.settings!;
      await p!.store.setVendorSettings('clover', { ...settings, catalogSchedule: '* * * * * *' });
      changes.changed(); // what PUT /admin/vendors/clover/settings does after writing
      await changes.idle();
      expect(scheduler.jobs).toEqual([{ vendor: 'clover', schedule: '* * * * * *', source: 'settings' }]);
      await vi.waitFor(
        async () => expect((await p!.runs.list()).filter((r) => r.status === 'succeeded').length).toBeGreaterThanOrEqual(1),
        { timeout: 4_000, interval: 100 },
      );

      // The override removed: back to the nightly default, no more ticks.
      await p!.store.setVendorSettings('clover', settings);
      changes.changed();
      await changes.idle();
      expect(scheduler.jobs).toEqual([{ vendor: 'clover', schedule: '20 3 * * *', source: 'adapter' }]);
      await new Promise((r) => setTimeout(r, 1_100)); // a tick in flight at the switch may still finish
      const settled = (await p!.runs.list()).length;
      await new Promise((r) => setTimeout(r, 1_200));
      expect((await p!.runs.list()).length).toBe(settled);
    } finally {
      changes.stop();
      await scheduler.stop();
    }
  });
});
