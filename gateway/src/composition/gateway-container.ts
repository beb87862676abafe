import 'reflect-metadata';
import { join } from 'node:path';
import { tracingOn, type LoyaltyEngine } from '@loyalty-gateway/core';
import { createWorkerEngine, ENGINE_NOTICE_MESSAGES, openEngine, type EngineNotice, type EngineSeedInput } from '@loyalty-gateway/engine';
import { container as rootContainer, instancePerContainerCachingFactory, type DependencyContainer, type FactoryProvider } from 'tsyringe';
import { startOperatorSide } from '../admin/index.js';
import { buildApp, type AppOptions } from '../app.js';
import { ensureDemo, isEmptyDataDir } from '../boot/demo.js';
import { ensureDevelopmentAdminToken } from '../boot/development-admin-token.js';
import { privateDataDir } from '../boot/private-data-dir.js';
import { openDatabases } from '../boot/open-databases.js';
import type { ParsedSeed } from '../boot/seed-schema.js';
import { applySeed, loadSeedFile } from '../boot/seed.js';
import type { GatewayConfig } from '../config.js';
import { createHttpEngine } from '../engine-client/index.js';
import { createGatewayLogging } from '../http/logger-options.js';
import { createDeliveryJournal } from '../journal/index.js';
import { ENGINE_WORKER_LIMITS, engineOnEventLoop, JOURNAL_WORKER_LIMITS } from '../memory/memory-bounds.js';
import { GatewayMetrics } from '../metrics/index.js';
import { outboundPolicyOf } from '../outbound-policy.js';
import { traceEngine } from '../tracing/trace-engine.js';
import { traceIdempotencyCache } from '../tracing/trace-idempotency-cache.js';
import {
  createGatewayStore,
  createIdempotencyCache,
  createRedisClient,
  createVendorNoteStore,
  loadMasterKey,
  type GatewayStore,
} from '../stores/index.js';
import { ResourceScope } from './resource-scope.js';
import { TOKENS, type Token } from './tokens.js';

const MiB = 1024 * 1024;

/** A registration's value, typed by its token. */
export const get = <T>(c: DependencyContainer, t: Token<T>): T => c.resolve<T>(t);
/** An async resource, opened (once per container) on first use. */
export const open = <T>(c: DependencyContainer, t: Token<Promise<T>>): Promise<T> => c.resolve<Promise<T>>(t);

/** One instance per container that resolves it (a child container that overrides a dependency gets its own). */
export const perContainer = <T>(make: (c: DependencyContainer) => T): FactoryProvider<T> => ({
  useFactory: instancePerContainerCachingFactory(make),
});

/**
 * An async resource, one per container: opened on first resolve; once open, its `close` joins the
 * container's scope, so closing the scope closes it after everything opened later.
 */
export const resource = <T>(
  name: string,
  openIt: (c: DependencyContainer) => Promise<T>,
  close?: (value: NonNullable<T>) => Promise<unknown>,
): FactoryProvider<Promise<T>> =>
  perContainer(async (c) => {
    const value = await openIt(c);
    if (close && value !== null && value !== undefined) get(c, TOKENS.scope).add(name, () => close(value as NonNullable<T>));
    return value;
  });

/**
 * Register a provider: a value, or a factory from `perContainer` / `resource`. A value is
 * registered as a factory returning it (tsyringe takes a `useValue` of null or undefined for no
 * provider at all; "logging off" is null).
 */
export function provide<T>(c: DependencyContainer, t: Token<T>, provider: FactoryProvider<T> | { useValue: T }): void {
  c.register<T>(t, 'useValue' in provider ? { useFactory: () => provider.useValue } : provider);
}

/**
 * A remote engine applies its own seed (ENGINE_SEED_FILE): the gateway seeds only what it owns,
 * vendors and connections. Returns how many were created.
 */
async function applyGatewaySeedOnly(seed: ParsedSeed, store: GatewayStore): Promise<{ vendors: number; connections: number }> {
  let vendors = 0;
  let connections = 0;
  for (const vendor of seed.vendors) if ((await store.ensureVendor(vendor)).created) vendors += 1;
  for (const connection of seed.connections) if ((await store.ensureConnection(connection)).created) connections += 1;
  return { vendors, connections };
}

/** Register every part of a gateway process on `c`, read from `config`. */
export function registerGateway(c: DependencyContainer, config: GatewayConfig): void {
  provide(c, TOKENS.config, { useValue: config });
  provide(
    c,
    TOKENS.scope,
    perContainer((r) => new ResourceScope(() => get(r, TOKENS.logger))),
  );
  provide(
    c,
    TOKENS.logging,
    perContainer(() => createGatewayLogging(config.LOG_LEVEL)),
  );
  provide(
    c,
    TOKENS.logger,
    perContainer((r) => get(r, TOKENS.logging).logger),
  );
  provide(
    c,
    TOKENS.requestLineLogger,
    perContainer((r) => get(r, TOKENS.logging).requestLine),
  );
  provide(c, TOKENS.clock, { useValue: Date.now });

  provide(
    c,
    TOKENS.dataDir,
    perContainer(async () => {
      const firstStart = await isEmptyDataDir(config.GATEWAY_DATA_DIR);
      // Without DATABASE_URL: the gateway's SQLite file, and the embedded engine's unless the engine is remote.
      const sqliteFiles = config.DATABASE_URL ? [] : ['gateway.sqlite', ...(config.LOYALTY_ENGINE_URL ? [] : ['engine.sqlite'])];
      await privateDataDir(config.GATEWAY_DATA_DIR, sqliteFiles);
      return { firstStart };
    }),
  );
  // Development turns /admin, /console and /metrics on from the first start with a generated token;
  // elsewhere only GATEWAY_ADMIN_TOKEN does (production requires it, config.ts).
  provide(
    c,
    TOKENS.adminToken,
    perContainer(async (r) => {
      if (config.GATEWAY_ADMIN_TOKEN) return { token: config.GATEWAY_ADMIN_TOKEN, file: null };
      if (config.GATEWAY_ENV !== 'development') return { token: undefined, file: null };
      // After the data dir step: the token file must not make a first start look like a later one (the demo sandbox).
      await open(r, TOKENS.dataDir);
      return ensureDevelopmentAdminToken(config.GATEWAY_DATA_DIR);
    }),
  );
  provide(
    c,
    TOKENS.databases,
    resource(
      'databases',
      async (r) => {
        await open(r, TOKENS.dataDir);
        // Opened and migrated here, once per boot; the stores assume a migrated database.
        return openDatabases(config, (error) =>
          get(r, TOKENS.logger)?.warn({ err: error }, 'PostgreSQL connection lost; the pool reconnects on its next use'),
        );
      },
      (databases) => databases.close(),
    ),
  );
  provide(
    c,
    TOKENS.gatewayDatabase,
    perContainer(async (r) => (await open(r, TOKENS.databases)).gateway),
  );
  provide(
    c,
    TOKENS.masterKey,
    perContainer(async (r) => {
      await open(r, TOKENS.gatewayDatabase);
      return loadMasterKey({
        value: config.GATEWAY_MASTER_KEY,
        dataDir: config.GATEWAY_DATA_DIR,
        environment: config.GATEWAY_ENV,
        warn: (message) => get(r, TOKENS.logger)?.warn(message),
      });
    }),
  );
  provide(
    c,
    TOKENS.store,
    resource(
      'gateway store',
      async (r) => createGatewayStore({ database: await open(r, TOKENS.gatewayDatabase), masterKey: await open(r, TOKENS.masterKey) }),
      (store) => store.close(),
    ),
  );
  provide(
    c,
    TOKENS.notes,
    perContainer(async (r) => createVendorNoteStore({ database: await open(r, TOKENS.gatewayDatabase) })),
  );
  // LOYALTY_ENGINE_URL: the engine service over HTTP; otherwise the embedded engine: on SQLite on its
  // own thread, so the ledger's synchronous work never stalls the HTTP event loop; on PostgreSQL
  // on the event loop, where none of its work is synchronous (engineOnEventLoop).
  provide(
    c,
    TOKENS.embeddedEngine,
    resource(
      'embedded engine',
      async (r) => {
        if (config.LOYALTY_ENGINE_URL) return null;
        const log = get(r, TOKENS.logger);
        const onNotice = (notice: EngineNotice) => log?.warn(notice, ENGINE_NOTICE_MESSAGES[notice.event]);
        if (engineOnEventLoop(config)) {
          const engine = await openEngine({
            database: (await open(r, TOKENS.databases)).engine,
            ...(config.GATEWAY_COMMIT_LANES === undefined ? {} : { groupCommitLanes: config.GATEWAY_COMMIT_LANES }),
            onNotice,
          });
          log?.info('loyalty engine started on the event loop (PostgreSQL)');
          return engine;
        }
        return createWorkerEngine({
          database: (await open(r, TOKENS.databases)).engine,
          resourceLimits: ENGINE_WORKER_LIMITS,
          groupCommitLanes: config.GATEWAY_COMMIT_LANES,
          onWorkerStart: (threadId, heapLimit) =>
            log?.info({ threadId, heapLimitMb: Math.round(heapLimit / MiB) }, 'loyalty engine thread started'),
          onWorkerExit: (detail) =>
            log?.error(
              { detail },
              'the loyalty engine thread stopped; calls in flight answered as unavailable, the next call starts a new one',
            ),
          onNotice,
        });
      },
      (engine) => engine.close(),
    ),
  );
  provide(
    c,
    TOKENS.remoteEngine,
    resource(
      'engine client',
      async () =>
        config.LOYALTY_ENGINE_URL
          ? createHttpEngine({
              url: config.LOYALTY_ENGINE_URL,
              token: config.LOYALTY_ENGINE_TOKEN,
              timeoutMs: config.LOYALTY_ENGINE_TIMEOUT_MS,
            })
          : null,
      (engine) => engine.close(),
    ),
  );
  provide(
    c,
    TOKENS.metrics,
    perContainer(async (r) => {
      const remote = await open(r, TOKENS.remoteEngine);
      const metrics = new GatewayMetrics({ breakerOpen: () => remote?.circuitState() === 'open' });
      metrics.watchLogging(get(r, TOKENS.logging));
      return metrics;
    }),
  );
  // Every user of the port (doors, checkout, catalog pulls) goes through the timed one.
  provide(
    c,
    TOKENS.engine,
    perContainer(async (r) => {
      const engine: LoyaltyEngine = (await open(r, TOKENS.embeddedEngine)) ?? (await open(r, TOKENS.remoteEngine))!;
      const metrics = await open(r, TOKENS.metrics);
      const timed = metrics ? metrics.timeEngine<LoyaltyEngine>(engine) : engine;
      return tracingOn() ? traceEngine(timed) : timed;
    }),
  );
  provide(
    c,
    TOKENS.idempotency,
    resource(
      'idempotency cache',
      async (r) => {
        const cache = createIdempotencyCache({
          redisUrl: config.REDIS_URL,
          maxBytes: config.GATEWAY_IDEMPOTENCY_CACHE_MB * 1024 * 1024,
          onError: (error, operation) =>
            get(r, TOKENS.logger)?.warn({ err: error, operation }, 'idempotency cache unavailable; the ledger decides'),
        });
        return tracingOn() ? traceIdempotencyCache(cache) : cache;
      },
      (cache) => cache.close(),
    ),
  );
  provide(
    c,
    TOKENS.redis,
    resource(
      'redis',
      async () => (config.REDIS_URL ? createRedisClient(config.REDIS_URL) : null),
      (redis) => redis.quit(),
    ),
  );

  provide(
    c,
    TOKENS.seedDocument,
    perContainer(async () => (config.GATEWAY_SEED_FILE ? loadSeedFile(config.GATEWAY_SEED_FILE) : null)),
  );
  provide(
    c,
    TOKENS.seedStep,
    perContainer(async (r) => {
      // Opened before the file is read: a refused seed file finds a migrated, empty database (closed by start-up's failure).
      const store = await open(r, TOKENS.store);
      const embedded = await open(r, TOKENS.embeddedEngine);
      const seed = await open(r, TOKENS.seedDocument);
      if (!seed) return null;
      const created = embedded ? await applySeed(seed, { store, engine: embedded }) : await applyGatewaySeedOnly(seed, store);
      const log = get(r, TOKENS.logger);
      if (config.GATEWAY_SEED_FILE) log?.info({ file: config.GATEWAY_SEED_FILE, ...created }, 'seed file applied');
      if (!embedded)
        log?.info(
          "remote loyalty engine: merchants, members and rewards come from the engine service's own ENGINE_SEED_FILE, not this seed file",
        );
      return created;
    }),
  );
  // The demo sandbox seeds engine data too: only with the embedded engine.
  provide(
    c,
    TOKENS.demoStep,
    perContainer(async (r) => {
      if (config.GATEWAY_ENV !== 'development') return null;
      const engine = await open(r, TOKENS.embeddedEngine);
      if (!engine) return null;
      const { firstStart } = await open(r, TOKENS.dataDir);
      return ensureDemo(config.GATEWAY_DATA_DIR, firstStart, { store: await open(r, TOKENS.store), engine });
    }),
  );

  // The delivery journal (GATEWAY_JOURNAL_DAYS, 0: off), pruned hourly.
  provide(
    c,
    TOKENS.journal,
    perContainer(async (r) => {
      if (config.GATEWAY_JOURNAL_DAYS <= 0) return null;
      const log = get(r, TOKENS.logger);
      const journal = await createDeliveryJournal({
        database: await open(r, TOKENS.gatewayDatabase),
        masterKey: await open(r, TOKENS.masterKey),
        retentionDays: config.GATEWAY_JOURNAL_DAYS,
        maxBytes: config.GATEWAY_JOURNAL_MB * MiB,
        // SQLite: written by its own thread (a second connection to gateway.sqlite), off the HTTP thread.
        sqliteFile: config.DATABASE_URL ? undefined : join(config.GATEWAY_DATA_DIR, 'gateway.sqlite'),
        sqliteCacheMb: config.GATEWAY_SQLITE_CACHE_MB,
        writerResourceLimits: JOURNAL_WORKER_LIMITS,
        onError: (error, dropped) =>
          log?.warn({ err: error, dropped }, 'delivery journal: entries could not be written (requests are unaffected)'),
      });
      void journal
        .writerThread()
        ?.ready.then(({ heapSizeLimit, cacheSize }) =>
          log?.info(
            { heapLimitMb: Math.round(heapSizeLimit / MiB), sqliteCacheMb: Math.round(-cacheSize / 1024) },
            'delivery journal writer thread started',
          ),
        );
      const prune = () =>
        journal.prune().then(
          (removed) => removed > 0 && log?.info({ removed, days: config.GATEWAY_JOURNAL_DAYS }, 'delivery journal pruned'),
          (error: unknown) => log?.warn({ err: error }, 'delivery journal pruning failed; retried in an hour'),
        );
      const pruning = setInterval(() => void prune(), 60 * 60 * 1000);
      pruning.unref();
      get(r, TOKENS.scope).add('delivery journal', async () => {
        clearInterval(pruning);
        await journal.close();
      });
      void prune();
      (await open(r, TOKENS.metrics))?.watchJournal(journal);
      return journal;
    }),
  );
  provide(
    c,
    TOKENS.featured,
    perContainer(async (r) => ({
      store: await open(r, TOKENS.store),
      notes: await open(r, TOKENS.notes),
      publicUrl: config.GATEWAY_PUBLIC_URL,
      outbound: outboundPolicyOf(config),
    })),
  );
  // Operator side (the main listener only): /admin, /directory and the scheduled catalog pulls.
  provide(
    c,
    TOKENS.operatorSide,
    resource(
      'operator side',
      async (r) => {
        const embedded = await open(r, TOKENS.embeddedEngine);
        const metrics = await open(r, TOKENS.metrics);
        const log = get(r, TOKENS.logger);
        if (!log) throw new Error('the operator side logs: register a logger');
        return startOperatorSide({
          config: { ...config, GATEWAY_ADMIN_TOKEN: (await open(r, TOKENS.adminToken)).token },
          store: await open(r, TOKENS.store),
          engine: await open(r, TOKENS.engine),
          database: await open(r, TOKENS.gatewayDatabase),
          notes: await open(r, TOKENS.notes),
          log,
          idempotency: await open(r, TOKENS.idempotency),
          journal: await open(r, TOKENS.journal),
          onReconcileRun: (run) => metrics?.recordReconcileRun(run),
          onCatalogRun: (run) => metrics?.recordCatalogRun(run),
          ...(embedded ? { engineSeed: (seed: EngineSeedInput) => embedded.applySeed(seed) } : {}),
        });
      },
      (operator) => operator.close(),
    ),
  );
  provide(c, TOKENS.appOptionsOverride, { useValue: {} });
  provide(
    c,
    TOKENS.appOptions,
    perContainer(async (r): Promise<AppOptions> => {
      const config = get(r, TOKENS.config);
      const logger = get(r, TOKENS.logger);
      const store = await open(r, TOKENS.store);
      return {
        engine: await open(r, TOKENS.engine),
        connections: store,
        idempotency: await open(r, TOKENS.idempotency),
        redis: await open(r, TOKENS.redis),
        clock: get(r, TOKENS.clock),
        rateLimit: {
          max: config.GATEWAY_RATE_LIMIT,
          preview: config.GATEWAY_PREVIEW_RATE_LIMIT,
          deliveryLog: config.GATEWAY_DELIVERY_LOG_RATE_LIMIT,
        },
        ...(logger ? { loggerInstance: logger } : { logger: false }),
        requestLineLogger: get(r, TOKENS.requestLineLogger),
        environment: config.GATEWAY_ENV,
        features: config.GATEWAY_FEATURES,
        storePing: () => store.ping(),
        featured: (await open(r, TOKENS.featured)) ?? undefined,
        metrics: (await open(r, TOKENS.metrics)) ?? undefined,
        http: { requestTimeoutMs: config.GATEWAY_REQUEST_TIMEOUT_MS, maxConnections: config.GATEWAY_MAX_CONNECTIONS },
        refusalLimit: { max: config.GATEWAY_REFUSED_LIMIT },
        trustedProxies: config.GATEWAY_TRUSTED_PROXIES,
        journal: (await open(r, TOKENS.journal)) ?? undefined,
        ...get(r, TOKENS.appOptionsOverride),
      };
    }),
  );
  provide(
    c,
    TOKENS.app,
    resource(
      'app',
      async (r) => {
        // The data first (seed file, demo sandbox), then the doors.
        await open(r, TOKENS.seedStep);
        await open(r, TOKENS.demoStep);
        const options = await open(r, TOKENS.appOptions);
        const operator = await open(r, TOKENS.operatorSide);
        return buildApp({ ...options, ...operator?.appOptions });
      },
      (app) => app.close(),
    ),
  );
}

/** The composition root: a child of tsyringe's root container with every registration of a gateway process. */
export function createGatewayContainer(config: GatewayConfig): DependencyContainer {
  const c = rootContainer.createChildContainer();
  registerGateway(c, config);
  return c;
}

/** Close every resource the container opened, in reverse order of opening. */
export const closeContainer = (c: DependencyContainer): Promise<void> => get(c, TOKENS.scope).close();
