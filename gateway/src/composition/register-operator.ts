import { createHttpClient } from '@loyalty-gateway/core';
import type { EngineSeedInput } from '@loyalty-gateway/engine';
import type { DependencyContainer } from 'tsyringe';
import { adapters } from '../adapters.js';
import { createDoorPipeline } from '../app.js';
import type { GatewayConfig } from '../config.js';
import { createConsoleSessions } from '../console/index.js';
import { watchVendorChanges } from '../featured/index.js';
import { outboundPolicyOf } from '../outbound-policy.js';
import { createReconcileRunStore, createReconciler } from '../reconcile/index.js';
import { createCatalogRunner } from '../scheduler/index.js';
import { createCatalogRunStore } from '../stores/index.js';
import { createSubscriptionManager } from '../subscriptions/index.js';
import { get, loggerOf, open, perContainer, provide, resource } from './container.js';
import { TOKENS } from './tokens.js';

/**
 * The one webhook pipeline of the process — the doors and the earn preview, the operator side's
 * reconciliation, replay and adapter preview — then the operator side's parts: catalog runs and
 * their runner, reconciliation, webhook subscriptions, the feed of provider settings changes, and
 * the options of /admin (with the console) and /directory. Starting their schedules is a
 * background job (register-jobs.ts).
 */
export function registerOperatorSide(c: DependencyContainer, config: GatewayConfig): void {
  provide(
    c,
    TOKENS.pipeline,
    perContainer(async (r) =>
      createDoorPipeline({
        engine: await open(r, TOKENS.engine),
        cache: await open(r, TOKENS.idempotency),
        log: get(r, TOKENS.logger) ?? { warn: () => {} },
        metrics: await open(r, TOKENS.metrics),
      }),
    ),
  );
  // Vendors' APIs: catalog and reconciliation pulls, subscriptions (the vendor-call policy, the outbound rule).
  provide(
    c,
    TOKENS.vendorHttp,
    perContainer(() => createHttpClient({ outbound: outboundPolicyOf(config) })),
  );
  // The run history's pruning deletes on the journal's connection when there is one: on SQLite
  // that is its writer thread, so a long first pruning never holds the event loop.
  provide(
    c,
    TOKENS.catalogRuns,
    perContainer(async (r) =>
      createCatalogRunStore({ database: await open(r, TOKENS.gatewayDatabase), deletes: (await open(r, TOKENS.journal))?.runStatement }),
    ),
  );
  provide(
    c,
    TOKENS.reconcileRuns,
    perContainer(async (r) =>
      createReconcileRunStore({ database: await open(r, TOKENS.gatewayDatabase), deletes: (await open(r, TOKENS.journal))?.runStatement }),
    ),
  );
  provide(
    c,
    TOKENS.catalogRunner,
    resource(
      'catalog runner',
      async (r) => {
        const metrics = await open(r, TOKENS.metrics);
        return createCatalogRunner({
          store: await open(r, TOKENS.store),
          runs: await open(r, TOKENS.catalogRuns),
          engine: await open(r, TOKENS.engine),
          adapters,
          logger: loggerOf(r, 'the catalog runner'),
          http: get(r, TOKENS.vendorHttp),
          onFinished: (run) => metrics?.recordCatalogRun(run),
        });
      },
      (runner) => runner.stop(),
    ),
  );
  provide(
    c,
    TOKENS.reconciler,
    resource(
      'reconciler',
      async (r) => {
        const metrics = await open(r, TOKENS.metrics);
        const engine = await open(r, TOKENS.engine);
        return createReconciler({
          store: await open(r, TOKENS.store),
          runs: await open(r, TOKENS.reconcileRuns),
          pipeline: await open(r, TOKENS.pipeline),
          http: get(r, TOKENS.vendorHttp),
          reversedOrders: (query) => engine.reversedOrders(query),
          adapters,
          logger: loggerOf(r, 'the reconciler'),
          onFinished: (run) => metrics?.recordReconcileRun(run),
        });
      },
      (reconciler) => reconciler.stop(),
    ),
  );
  provide(
    c,
    TOKENS.subscriptions,
    perContainer(async (r) =>
      createSubscriptionManager({
        store: await open(r, TOKENS.store),
        adapters,
        http: get(r, TOKENS.vendorHttp),
        logger: loggerOf(r, 'the subscription manager'),
        publicUrl: config.GATEWAY_PUBLIC_URL,
      }),
    ),
  );
  // Admin writes tell it at once, other processes' writes are polled (the polling is a background job).
  provide(
    c,
    TOKENS.vendorChanges,
    resource(
      'vendor changes',
      async (r) => watchVendorChanges({ store: await open(r, TOKENS.store), log: loggerOf(r, 'the vendor changes feed') }),
      async (changes) => changes.stop(),
    ),
  );
  // Operator side (the main listener only): /admin with the console, /directory.
  provide(
    c,
    TOKENS.operatorSide,
    perContainer(async (r) => {
      const token = (await open(r, TOKENS.adminToken)).token;
      const store = await open(r, TOKENS.store);
      const embedded = await open(r, TOKENS.embeddedEngine);
      const journal = (await open(r, TOKENS.journal)) ?? undefined;
      const pipeline = await open(r, TOKENS.pipeline);
      const database = await open(r, TOKENS.gatewayDatabase);
      const vendorChanges = await open(r, TOKENS.vendorChanges);
      if (!token)
        loggerOf(r, 'the operator side').warn('admin API disabled: GATEWAY_ADMIN_TOKEN is not set, every /admin route answers 404');
      return {
        appOptions: {
          admin: {
            token,
            store,
            engine: await open(r, TOKENS.engine),
            notes: await open(r, TOKENS.notes),
            runs: await open(r, TOKENS.catalogRuns),
            runner: await open(r, TOKENS.catalogRunner),
            reconciler: await open(r, TOKENS.reconciler),
            subscriptions: await open(r, TOKENS.subscriptions),
            adapters,
            journal,
            replayPipeline: pipeline,
            previewPipeline: pipeline,
            outbound: outboundPolicyOf(config),
            publicUrl: config.GATEWAY_PUBLIC_URL,
            consoleSessions: createConsoleSessions({ database, adminToken: token ?? '' }),
            tlsListener: config.GATEWAY_TLS_PORT !== undefined,
            ...(embedded ? { engineSeed: (seed: EngineSeedInput) => embedded.applySeed(seed) } : {}),
            onVendorChanged: () => vendorChanges.changed(),
          },
          directory: { store, adapters, publicUrl: config.GATEWAY_PUBLIC_URL, environment: config.GATEWAY_ENV },
        },
      };
    }),
  );
}
