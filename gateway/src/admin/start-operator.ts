import { createConsoleSessions } from '../console/index.js';
import { createHttpClient, type AnyAdapter, type IdempotencyCache, type LoyaltyEngine } from '@loyalty-gateway/core';
import type { SqlDatabase } from '@loyalty-gateway/storage';
import type { FastifyBaseLogger } from 'fastify';
import { adapters as registeredAdapters } from '../adapters.js';
import type { GatewayConfig } from '../config.js';
import { outboundPolicyOf } from '../outbound-policy.js';
import type { DirectoryOptions } from '../directory/index.js';
import { watchVendorChanges, type VendorChanges } from '../featured/index.js';
import { createCatalogRunner, startCatalogScheduler, type CatalogRunner, type CatalogScheduler } from '../scheduler/index.js';
import { createCatalogRunStore, createMemoryIdempotencyCache, type GatewayStore, type VendorNoteStore } from '../stores/index.js';
import { startRunHistoryPruning } from '../stores/run-history.js';
import { createReconcileRunStore, createReconciler, type ReconcileRun, type Reconciler } from '../reconcile/index.js';
import { createSubscriptionManager } from '../subscriptions/index.js';
import type { DeliveryJournal } from '../journal/index.js';
import { createWebhookPipeline } from '../webhooks/webhook-pipeline.js';
import type { AdminOptions } from './admin-types.js';
import { reportUnusableSettings } from './report-unusable-settings.js';

export interface OperatorSide {
  /** For buildApp: the /admin API (mounted when a token is set) and the public directory. */
  appOptions: { admin: AdminOptions; directory: DirectoryOptions };
  runner: CatalogRunner;
  scheduler: CatalogScheduler | null;
  /** Order reconciliation: scheduled with the catalog pulls (GATEWAY_SCHEDULER=on), manual through /admin. */
  reconciler: Reconciler;
  /** Provider settings changes (admin writes here at once, other processes' by polling): for the HTTPS listener's client CAs. */
  vendorChanges: VendorChanges;
  /** Stop the schedules and wait for running pulls (before the engine and databases close). */
  close(): Promise<void>;
}

/**
 * The operator side of a gateway process: catalog runs and their runner, the node-cron schedules
 * when GATEWAY_SCHEDULER=on (following each vendor's `catalogSchedule` setting as it changes), the
 * feed of provider settings changes, and the options of /admin and /directory. Every process may run the
 * schedules: the run rows decide which one pulls each connection for a tick.
 */
export async function startOperatorSide(options: {
  config: GatewayConfig;
  store: GatewayStore;
  engine: LoyaltyEngine;
  database: SqlDatabase<any>;
  notes: VendorNoteStore;
  log: FastifyBaseLogger;
  adapters?: readonly AnyAdapter[];
  /** The embedded reference engine's seed path: /admin creates merchants and outlets through it. */
  engineSeed?: AdminOptions['engineSeed'];
  /** The doors' idempotency cache: reconciliation submits through the same exactly-once pipeline (a memory cache when absent). */
  idempotency?: IdempotencyCache;
  /** The delivery journal: /admin/deliveries reads it, a replay goes through the pipeline below. */
  journal?: DeliveryJournal | null;
  /** Told of every finished catalog pull (the process's metrics). */
  onCatalogRun?: (run: { vendor: string; status: string }) => void;
  /** Told of every finished reconciliation run (the process's metrics). */
  onReconcileRun?: (run: ReconcileRun) => void;
}): Promise<OperatorSide> {
  const { config, store, log } = options;
  const adapters = options.adapters ?? registeredAdapters;
  // The run history's pruning deletes on the journal's connection when there is one: on SQLite
  // that is its writer thread, so a long first pruning never holds the event loop.
  const deletes = options.journal?.runStatement;
  const runs = await createCatalogRunStore({ database: options.database, deletes });
  const http = createHttpClient({ outbound: outboundPolicyOf(config) });
  const runner = createCatalogRunner({
    store,
    runs,
    engine: options.engine,
    adapters,
    logger: log,
    http,
    onFinished: options.onCatalogRun,
  });
  const pipeline = createWebhookPipeline({
    engine: options.engine,
    cache: options.idempotency ?? createMemoryIdempotencyCache(),
    onCacheError: (error, operation) => log.warn({ err: error, operation }, 'idempotency cache unavailable; the ledger decides'),
    onConflict: ({ connection, transactionId, firstReceivedAt, source }) =>
      log.warn(
        { vendor: connection.vendor, store: connection.storeId, connectionId: connection.id, transactionId, firstReceivedAt, source },
        'reconciliation: the vendor now describes an already recorded sale differently; counted duplicate, nothing applied',
      ),
  });
  const subscriptions = createSubscriptionManager({ store, adapters, http, logger: log, publicUrl: config.GATEWAY_PUBLIC_URL });
  const reconcileRuns = await createReconcileRunStore({ database: options.database, deletes });
  const reconciler = createReconciler({
    store,
    runs: reconcileRuns,
    pipeline,
    http,
    reversedOrders: (query) => options.engine.reversedOrders(query),
    adapters,
    logger: log,
    onFinished: options.onReconcileRun,
  });
  const vendorChanges = watchVendorChanges({ store, log });
  const runHistory = startRunHistoryPruning({ catalog: runs, reconcile: reconcileRuns, days: config.GATEWAY_RUNS_DAYS, log });
  let scheduler: CatalogScheduler | null = null;
  const stop = async () => {
    vendorChanges.stop();
    await reconciler.stop();
    if (scheduler) await scheduler.stop();
    else await runner.stop();
    await runHistory.stop();
  };
  const tlsListener = config.GATEWAY_TLS_PORT !== undefined;
  try {
    // Polled only where something follows provider settings: the schedules, the HTTPS listener's client CAs.
    if (config.GATEWAY_SCHEDULER === 'on' || tlsListener) await vendorChanges.start();
    scheduler =
      config.GATEWAY_SCHEDULER === 'on'
        ? await startCatalogScheduler({ runner, adapters, logger: log, store, changes: vendorChanges })
        : null;
    if (scheduler) reconciler.schedule();
    if (!scheduler) log.info('catalog scheduler off (GATEWAY_SCHEDULER=off); pulls run only when triggered through /admin');
    if (!config.GATEWAY_ADMIN_TOKEN) log.warn('admin API disabled: GATEWAY_ADMIN_TOKEN is not set, every /admin route answers 404');
    await reportUnusableSettings(store, adapters, { tlsListener }, log);
  } catch (error) {
    // Start-up failed after polling or cron jobs began: nothing may keep running against a store the caller closes.
    await stop();
    throw error;
  }
  return {
    appOptions: {
      admin: {
        token: config.GATEWAY_ADMIN_TOKEN,
        store,
        engine: options.engine,
        notes: options.notes,
        runs,
        runner,
        reconciler,
        subscriptions,
        adapters,
        journal: options.journal ?? undefined,
        replayPipeline: pipeline,
        previewPipeline: pipeline,
        outbound: outboundPolicyOf(config),
        publicUrl: config.GATEWAY_PUBLIC_URL,
        consoleSessions: createConsoleSessions({ database: options.database, adminToken: config.GATEWAY_ADMIN_TOKEN ?? '' }),
        tlsListener,
        engineSeed: options.engineSeed,
        onVendorChanged: () => vendorChanges.changed(),
      },
      directory: { store, adapters, publicUrl: config.GATEWAY_PUBLIC_URL, environment: config.GATEWAY_ENV },
    },
    runner,
    scheduler,
    reconciler,
    vendorChanges,
    close: stop,
  };
}
