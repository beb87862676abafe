import type { DependencyContainer } from 'tsyringe';
import { adapters } from '../adapters.js';
import { reportUnusableSettings } from '../admin/report-unusable-settings.js';
import type { GatewayConfig } from '../config.js';
import { startCatalogScheduler } from '../scheduler/index.js';
import { startRunHistoryPruning } from '../stores/run-history.js';
import { loggerOf, open, perContainer, provide, resource } from './container.js';
import { TOKENS } from './tokens.js';

/**
 * What runs on its own, after the data is in: the schedules (GATEWAY_SCHEDULER=on: catalog pulls
 * following each vendor's `catalogSchedule` as it changes, reconciliation; every process may run
 * them, the run rows decide which one pulls a connection for a tick), the polling of provider
 * settings changes, the prunings of the run history and the delivery journal, and the start-up
 * report of unusable provider settings. Each is a resource of its own, stopped with the container
 * (before what it uses); `startGateway` opens them all with TOKENS.backgroundJobs.
 */
export function registerJobs(c: DependencyContainer, config: GatewayConfig): void {
  const tlsListener = config.GATEWAY_TLS_PORT !== undefined;
  provide(
    c,
    TOKENS.schedules,
    resource(
      'schedules',
      async (r) => {
        const log = loggerOf(r, 'the schedules');
        const vendorChanges = await open(r, TOKENS.vendorChanges);
        const runner = await open(r, TOKENS.catalogRunner);
        const reconciler = await open(r, TOKENS.reconciler);
        // Polled only where something follows provider settings: the schedules, the HTTPS listener's client CAs.
        if (config.GATEWAY_SCHEDULER === 'on' || tlsListener) await vendorChanges.start();
        if (config.GATEWAY_SCHEDULER !== 'on') {
          log.info('catalog scheduler off (GATEWAY_SCHEDULER=off); pulls run only when triggered through /admin');
          return null;
        }
        const scheduler = await startCatalogScheduler({
          runner,
          adapters,
          logger: log,
          store: await open(r, TOKENS.store),
          changes: vendorChanges,
        });
        reconciler.schedule();
        return scheduler;
      },
      (scheduler) => scheduler.stop(),
    ),
  );
  provide(
    c,
    TOKENS.runHistoryPruning,
    resource(
      'run history pruning',
      async (r) =>
        startRunHistoryPruning({
          catalog: await open(r, TOKENS.catalogRuns),
          reconcile: await open(r, TOKENS.reconcileRuns),
          days: config.GATEWAY_RUNS_DAYS,
          log: loggerOf(r, 'the run history pruning'),
        }),
      (pruning) => pruning.stop(),
    ),
  );
  provide(
    c,
    TOKENS.settingsReport,
    perContainer(async (r) =>
      reportUnusableSettings(await open(r, TOKENS.store), adapters, { tlsListener }, loggerOf(r, 'the settings report')),
    ),
  );
  provide(
    c,
    TOKENS.backgroundJobs,
    perContainer(async (r) => {
      await open(r, TOKENS.seeded);
      await open(r, TOKENS.runHistoryPruning);
      await open(r, TOKENS.schedules);
      await open(r, TOKENS.journalPruning);
      await open(r, TOKENS.ledgerCheckpoints);
      await open(r, TOKENS.settingsReport);
    }),
  );
}
