import { join } from 'node:path';
import { getHeapStatistics } from 'node:v8';
import { mkdir } from 'node:fs/promises';
import type { LoyaltyEngine } from '@loyalty-gateway/core';
import { createWorkerEngine, type EmbeddedEngine, type EngineSeedInput } from '@loyalty-gateway/engine';
import type { FastifyInstance } from 'fastify';
import { startOperatorSide } from './admin/index.js';
import { buildApp, type AppOptions } from './app.js';
import { demoBanner, ensureDemo, isEmptyDataDir } from './boot/demo.js';
import { openDatabases } from './boot/open-databases.js';
import type { ParsedSeed } from './boot/seed-schema.js';
import { applySeed, loadSeedFile } from './boot/seed.js';
import { loadConfig, type GatewayConfig } from './config.js';
import { TOKENS, createGatewayContainer } from './container.js';
import { createHttpEngine } from './engine-client/index.js';
import { createGatewayLogging } from './http/logger-options.js';
import { GatewayMetrics, startMetricsListener } from './metrics/index.js';
import { outboundPolicyOf } from './outbound-policy.js';
import { createDeliveryJournal } from './journal/index.js';
import { ENGINE_WORKER_LIMITS, JOURNAL_WORKER_LIMITS, assertHeapHoldsCache, releaseHeapFlagsForWorkers } from './memory/memory-bounds.js';
import {
  createGatewayStore,
  createIdempotencyCache,
  createRedisClient,
  createVendorNoteStore,
  loadMasterKey,
  type GatewayStore,
} from './stores/index.js';
import { startTlsListener } from './tls/start-tls-listener.js';

export interface RunningGateway {
  app: FastifyInstance;
  config: GatewayConfig;
  /** e.g. http://127.0.0.1:3000 */
  address: string;
  /** The mTLS HTTPS listener's port when GATEWAY_TLS_PORT is set. */
  tlsPort?: number | undefined;
  /** Stop listening, finish in-flight requests, then release the engine, stores, Redis and databases. */
  close(): Promise<void>;
}

const MiB = 1024 * 1024;

/** Loopback URL for a listen address (0.0.0.0 / :: are not where a local client connects). */
const localUrl = (host: string, port: number) =>
  `http://${host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host}:${port}`;

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

/**
 * Boot the gateway from an environment: config, data dir, databases, master key, stores, the
 * embedded engine, seed file and demo sandbox, then the app, listening. Anything opened is closed
 * again when a later step fails. ConfigError / SeedError carry messages meant for the operator.
 */
export async function startGateway(env: Record<string, string | undefined> = process.env): Promise<RunningGateway> {
  const config = loadConfig(env);
  // Without REDIS_URL the idempotency cache lives in this thread's heap: refuse a heap it cannot fill.
  const heapLimit = getHeapStatistics().heap_size_limit;
  if (!config.REDIS_URL) assertHeapHoldsCache(config, heapLimit);
  // The worker threads started below get their own bounds, not this thread's flags.
  releaseHeapFlagsForWorkers();
  const { logger: log, requestLine } = createGatewayLogging(config.LOG_LEVEL);
  log.info({ heapLimitMb: Math.round(heapLimit / MiB) }, 'main thread heap limit');
  const closers: Array<() => Promise<unknown>> = [];
  const closeAll = async () => {
    for (const close of closers.splice(0).reverse()) {
      // A step that holds the stop up is named in the log before the process manager's timeout.
      const slow = setTimeout(() => log.warn({ step: close.toString().slice(0, 160) }, 'shutdown step still running after 2 s'), 2_000);
      await close().catch((error: unknown) => log.error({ err: error }, 'shutdown step failed'));
      clearTimeout(slow);
    }
  };
  try {
    const dataDir = config.GATEWAY_DATA_DIR;
    const firstStart = await isEmptyDataDir(dataDir);
    await mkdir(dataDir, { recursive: true });
    const databases = await openDatabases(config, (error) =>
      log.warn({ err: error }, 'PostgreSQL connection lost; the pool reconnects on its next use'),
    );
    closers.push(() => databases.close());
    const masterKey = await loadMasterKey({
      value: config.GATEWAY_MASTER_KEY,
      dataDir,
      environment: config.GATEWAY_ENV,
      warn: (message) => log.warn(message),
    });
    const store = await createGatewayStore({ database: databases.gateway, masterKey });
    closers.push(() => store.close());
    // LOYALTY_ENGINE_URL: the engine service over HTTP; otherwise the embedded engine, on its own
    // thread so the ledger's synchronous SQLite work never stalls the HTTP event loop.
    const embedded: EmbeddedEngine | null = config.LOYALTY_ENGINE_URL
      ? null
      : await createWorkerEngine({
          database: databases.engine,
          resourceLimits: ENGINE_WORKER_LIMITS,
          onWorkerStart: (threadId, heapLimit) =>
            log.info({ threadId, heapLimitMb: Math.round(heapLimit / MiB) }, 'loyalty engine thread started'),
          onWorkerExit: (detail) =>
            log.error(
              { detail },
              'the loyalty engine thread stopped; calls in flight answered as unavailable, the next call starts a new one',
            ),
        });
    const remote = embedded
      ? null
      : createHttpEngine({
          url: config.LOYALTY_ENGINE_URL!,
          token: config.LOYALTY_ENGINE_TOKEN,
          timeoutMs: config.LOYALTY_ENGINE_TIMEOUT_MS,
        });
    closers.push(() => (embedded ?? remote!).close());
    const metrics = new GatewayMetrics({ breakerOpen: () => remote?.circuitState() === 'open' });
    // Every user of the port (doors, checkout, catalog pulls) goes through the timed one.
    const engine: LoyaltyEngine = metrics.timeEngine<LoyaltyEngine>(embedded ?? remote!);
    const idempotency = createIdempotencyCache({
      redisUrl: config.REDIS_URL,
      maxBytes: config.GATEWAY_IDEMPOTENCY_CACHE_MB * 1024 * 1024,
      onError: (error, operation) => log.warn({ err: error, operation }, 'idempotency cache unavailable; the ledger decides'),
    });
    closers.push(() => idempotency.close());
    const redis = config.REDIS_URL ? createRedisClient(config.REDIS_URL) : null;
    if (redis) closers.push(() => redis.quit());

    if (config.GATEWAY_SEED_FILE) {
      const seed = await loadSeedFile(config.GATEWAY_SEED_FILE);
      const created = embedded ? await applySeed(seed, { store, engine: embedded }) : await applyGatewaySeedOnly(seed, store);
      log.info({ file: config.GATEWAY_SEED_FILE, ...created }, 'seed file applied');
      if (!embedded)
        log.info(
          "remote loyalty engine: merchants, members and rewards come from the engine service's own ENGINE_SEED_FILE, not this seed file",
        );
    }
    // The demo sandbox seeds engine data too: only with the embedded engine.
    const demo =
      config.GATEWAY_ENV === 'development' && embedded ? await ensureDemo(dataDir, firstStart, { store, engine: embedded }) : null;

    // The delivery journal (GATEWAY_JOURNAL_DAYS, 0: off): closed before the databases (closers run in reverse).
    const journal =
      config.GATEWAY_JOURNAL_DAYS > 0
        ? await createDeliveryJournal({
            database: databases.gateway,
            masterKey,
            retentionDays: config.GATEWAY_JOURNAL_DAYS,
            // SQLite: written by its own thread (a second connection to gateway.sqlite), off the HTTP thread.
            sqliteFile: config.DATABASE_URL ? undefined : join(dataDir, 'gateway.sqlite'),
            writerResourceLimits: JOURNAL_WORKER_LIMITS,
            onError: (error, dropped) =>
              log.warn({ err: error, dropped }, 'delivery journal: entries could not be written (requests are unaffected)'),
          })
        : null;
    if (journal) {
      const writer = journal.writerThread();
      void writer?.ready.then((heapLimit) =>
        log.info({ heapLimitMb: Math.round(heapLimit / MiB) }, 'delivery journal writer thread started'),
      );
      const prune = () =>
        journal.prune().then(
          (removed) => removed > 0 && log.info({ removed, days: config.GATEWAY_JOURNAL_DAYS }, 'delivery journal pruned'),
          (error: unknown) => log.warn({ err: error }, 'delivery journal pruning failed; retried in an hour'),
        );
      const pruning = setInterval(() => void prune(), 60 * 60 * 1000);
      pruning.unref();
      void prune();
      closers.push(async () => {
        clearInterval(pruning);
        await journal.close();
      });
    }
    const container = createGatewayContainer({
      config,
      logger: log,
      requestLineLogger: requestLine,
      engine,
      connections: store,
      idempotency,
      redis,
      storePing: () => store.ping(),
    });
    // The featured doors read the vendor registry per request and record handshakes for the operator.
    const notes = await createVendorNoteStore({ database: databases.gateway });
    const appOptions: AppOptions = {
      ...container.resolve<AppOptions>(TOKENS.appOptions),
      featured: { store, notes, publicUrl: config.GATEWAY_PUBLIC_URL, outbound: outboundPolicyOf(config) },
      metrics,
      http: { requestTimeoutMs: config.GATEWAY_REQUEST_TIMEOUT_MS, maxConnections: config.GATEWAY_MAX_CONNECTIONS },
      refusalLimit: { max: config.GATEWAY_REFUSED_LIMIT },
      trustedProxies: config.GATEWAY_TRUSTED_PROXIES,
      journal: journal ?? undefined,
    };
    if (journal) metrics.watchJournal(journal);
    // Operator side (this listener only): /admin, /directory and the scheduled catalog pulls.
    const operator = await startOperatorSide({
      config,
      store,
      engine,
      database: databases.gateway,
      notes,
      log,
      idempotency,
      journal,
      onReconcileRun: (run) => metrics.recordReconcileRun(run),
      onCatalogRun: (run) => metrics.recordCatalogRun(run),
      ...(embedded ? { engineSeed: (seed: EngineSeedInput) => embedded.applySeed(seed) } : {}),
    });
    closers.push(() => operator.close());
    const app = await buildApp({ ...appOptions, ...operator.appOptions });
    closers.push(() => app.close());
    await app.listen({ port: config.PORT, host: config.HOST });
    const port = (app.server.address() as { port: number }).port;
    let tlsPort: number | undefined;
    if (config.GATEWAY_TLS_PORT !== undefined) {
      const tls = await startTlsListener({
        appOptions,
        store,
        host: config.HOST,
        port: config.GATEWAY_TLS_PORT,
        certFile: config.GATEWAY_TLS_CERT_FILE!,
        keyFile: config.GATEWAY_TLS_KEY_FILE!,
        log,
        changes: operator.vendorChanges,
      });
      closers.push(() => {
        tls.clientCas.stop();
        return tls.app.close();
      });
      tlsPort = tls.port;
    }
    if (config.GATEWAY_METRICS_PORT !== undefined) {
      const listener = await startMetricsListener(metrics, config.GATEWAY_METRICS_PORT, config.GATEWAY_METRICS_HOST);
      closers.push(() => listener.close());
      log.info({ port: listener.port, host: config.GATEWAY_METRICS_HOST }, 'metrics listener ready (GET /metrics, no authentication)');
    }
    const address = localUrl(config.HOST, port);
    log.info(
      {
        environment: config.GATEWAY_ENV,
        dataDir,
        database: databases.gateway.dialect,
        redis: Boolean(redis),
        engine: embedded ? 'embedded' : 'remote',
      },
      `gateway ready on ${address}`,
    );
    if (demo) for (const line of demoBanner(demo, address)) log.info(line);
    return { app, config, address, tlsPort, close: closeAll };
  } catch (error) {
    await closeAll();
    throw error;
  }
}
