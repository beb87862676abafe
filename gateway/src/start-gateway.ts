import { getHeapStatistics } from 'node:v8';
import { startTracing } from '@loyalty-gateway/core';
import type { FastifyInstance } from 'fastify';
import { demoBanner } from './boot/demo.js';
import { adminBanner } from './boot/development-admin-token.js';
import { loadConfig, type GatewayConfig } from './config.js';
import { TOKENS, closeContainer, createGatewayContainer, get, open } from './composition/index.js';
import { assertHeapHoldsWorkingSet, releaseHeapFlagsForWorkers } from './memory/memory-bounds.js';
import { startMetricsListener } from './metrics/index.js';
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

/** Probes and scrapes, every few seconds: never traced. */
const UNTRACED_PATHS = ['/health', '/ready', '/metrics'];

/** Loopback URL for a listen address (0.0.0.0 / :: are not where a local client connects). */
const localUrl = (host: string, port: number) =>
  `http://${host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host}:${port}`;

/**
 * Boot the gateway from an environment: the composition root (`composition/`) opens config, data
 * dir, databases, master key, stores, engine, seed file and demo sandbox as the background jobs
 * (schedules, prunings) and the app with its operator side need them; this listens (and the mTLS and metrics listeners when configured). Anything opened
 * is closed again when a later step fails. ConfigError / SeedError carry messages meant for the operator.
 */
export async function startGateway(env: Record<string, string | undefined> = process.env): Promise<RunningGateway> {
  const config = loadConfig(env);
  // Refuse a heap too small for the working set now, not when it runs out under load.
  const heapLimit = getHeapStatistics().heap_size_limit;
  assertHeapHoldsWorkingSet(config, heapLimit);
  // The worker threads the container starts get their own bounds, not this thread's flags.
  releaseHeapFlagsForWorkers();
  const container = createGatewayContainer(config);
  const scope = get(container, TOKENS.scope);
  const close = () => closeContainer(container);
  try {
    // Before anything creates a Fastify instance or loads pg, ioredis or undici (they are
    // instrumented as they load), and before the loggers (which then add trace ids to each line).
    const tracing = await startTracing(env, {
      serviceName: 'loyalty-gateway',
      untracedPaths: UNTRACED_PATHS,
      requestAttributes: (request) => ({ 'loyalty.request_id': request.id }),
    });
    // Added first, so closed last: the spans of the requests answered before the stop are exported.
    if (tracing) scope.add('tracing', () => tracing.shutdown());
    const log = get(container, TOKENS.logger)!;
    tracing?.useLogger(log);
    log.info({ heapLimitMb: Math.round(heapLimit / MiB) }, 'main thread heap limit');
    // The data first (seed file, demo sandbox), then the schedules and prunings, then the app.
    await open(container, TOKENS.backgroundJobs);
    const app = await open(container, TOKENS.app);
    await app.listen({ port: config.PORT, host: config.HOST });
    const port = (app.server.address() as { port: number }).port;
    let tlsPort: number | undefined;
    if (config.GATEWAY_TLS_PORT !== undefined) {
      const tls = await startTlsListener({
        appOptions: await open(container, TOKENS.appOptions),
        store: await open(container, TOKENS.store),
        host: config.HOST,
        port: config.GATEWAY_TLS_PORT,
        certFile: config.GATEWAY_TLS_CERT_FILE!,
        keyFile: config.GATEWAY_TLS_KEY_FILE!,
        log,
        changes: await open(container, TOKENS.vendorChanges),
      });
      scope.add('mTLS listener', () => {
        tls.clientCas.stop();
        return tls.app.close();
      });
      tlsPort = tls.port;
    }
    const metrics = await open(container, TOKENS.metrics);
    if (config.GATEWAY_METRICS_PORT !== undefined && metrics) {
      const listener = await startMetricsListener(metrics, config.GATEWAY_METRICS_PORT, config.GATEWAY_METRICS_HOST);
      scope.add('metrics listener', () => listener.close());
      log.info({ port: listener.port, host: config.GATEWAY_METRICS_HOST }, 'metrics listener ready (GET /metrics, no authentication)');
    }
    const address = localUrl(config.HOST, port);
    log.info(
      {
        environment: config.GATEWAY_ENV,
        dataDir: config.GATEWAY_DATA_DIR,
        database: (await open(container, TOKENS.gatewayDatabase)).dialect,
        redis: Boolean(await open(container, TOKENS.redis)),
        engine: (await open(container, TOKENS.embeddedEngine)) ? 'embedded' : 'remote',
      },
      `gateway ready on ${address}`,
    );
    const demo = await open(container, TOKENS.demoStep);
    if (config.GATEWAY_ENV === 'development')
      for (const line of adminBanner(await open(container, TOKENS.adminToken), address)) log.info(line);
    if (demo) for (const line of demoBanner(demo, address)) log.info(line);
    return { app, config, address, tlsPort, close };
  } catch (error) {
    await close();
    throw error;
  }
}
