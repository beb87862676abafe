import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { GatewayError, startTracing, traceLogFields } from '@loyalty-gateway/core';
import type { FastifyInstance } from 'fastify';
import { createDatabase, migrate, warnWithoutAutovacuum } from '@loyalty-gateway/storage';
import { engineMigrations } from '../db/migrations/index.js';
import { createEmbeddedEngine, ENGINE_NOTICE_MESSAGES } from '../ledger/create-embedded-engine.js';
import { createEngineServer } from './create-engine-server.js';
import { EngineServiceConfigError, loadEngineServiceConfig, type EngineServiceConfig } from './service-config.js';
import { loadEngineSeedFile } from './service-seed.js';

export interface RunningEngineService {
  app: FastifyInstance;
  config: EngineServiceConfig;
  /** e.g. http://127.0.0.1:4000 */
  address: string;
  /** Stop listening, finish in-flight requests, then close the engine and its database. */
  close(): Promise<void>;
}

const REDACT = ['req.headers.authorization', 'headers.authorization'];

/**
 * Boot the engine service from an environment: config, database (SQLite file under
 * ENGINE_DATA_DIR, or PostgreSQL), migrations, seed file, then the HTTP server, listening.
 * Anything opened is closed again when a later step fails. `logStream`: where the log goes
 * (standard output by default).
 */
export async function startEngineService(
  env: Record<string, string | undefined> = process.env,
  { logStream }: { logStream?: NodeJS.WritableStream } = {},
): Promise<RunningEngineService> {
  const config = loadEngineServiceConfig(env);
  const seed = config.ENGINE_SEED_FILE ? await loadEngineSeedFile(config.ENGINE_SEED_FILE) : null;
  // OpenTelemetry when OTEL_* ask for it (nothing of it loaded otherwise): before pg is loaded and
  // the server created, so both are instrumented; a gateway's traceparent continues its trace here.
  const tracing = await startTracing(env, { serviceName: 'loyalty-engine', untracedPaths: ['/health'] });
  if (!config.DATABASE_URL) await mkdir(config.ENGINE_DATA_DIR, { recursive: true });
  const database = createDatabase({
    postgresUrl: config.DATABASE_URL,
    sqliteFile: join(config.ENGINE_DATA_DIR, 'engine.sqlite'),
    sqliteCacheMb: config.ENGINE_SQLITE_CACHE_MB,
  });
  let app: FastifyInstance | undefined;
  try {
    await migrate(database.db, engineMigrations);
    // Notices come with traffic, once the server (and its logger) exists.
    const engine = await createEmbeddedEngine({
      database,
      ...(config.ENGINE_COMMIT_LANES === undefined ? {} : { groupCommitLanes: config.ENGINE_COMMIT_LANES }),
      onNotice: (notice) => app?.log.warn(notice, ENGINE_NOTICE_MESSAGES[notice.event]),
    });
    if (seed) {
      await engine.applySeed(seed).catch((error: unknown) => {
        throw error instanceof GatewayError ? new EngineServiceConfigError(`ENGINE_SEED_FILE is invalid: ${error.message}`) : error;
      });
    }
    app = createEngineServer({
      engine,
      token: config.ENGINE_TOKEN,
      batches: config.ENGINE_COMMAND_BATCHES === 'on',
      logger: {
        level: config.LOG_LEVEL,
        redact: { paths: REDACT, censor: '[redacted]' },
        ...(tracing ? { mixin: traceLogFields } : {}),
        ...(logStream ? { stream: logStream } : {}),
      },
    });
    tracing?.useLogger(app.log);
    app.addHook('onClose', async () => {
      await engine.close();
      await database.close();
      await tracing?.shutdown();
    });
    const address = await app.listen({ port: config.ENGINE_PORT, host: config.ENGINE_HOST });
    const running = app;
    if (!config.ENGINE_TOKEN) running.log.warn('ENGINE_TOKEN is not set: the engine service accepts unauthenticated requests');
    await warnWithoutAutovacuum(database, (message) => running.log.warn(message));
    return { app: running, config, address, close: () => running.close() };
  } catch (error) {
    if (app) await app.close().catch(() => undefined);
    else await database.close().catch(() => undefined);
    await tracing?.shutdown();
    throw error;
  }
}
