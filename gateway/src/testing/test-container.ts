import { randomBytes } from 'node:crypto';
import type { IdempotencyCache, LoyaltyEngine } from '@loyalty-gateway/core';
import { createEmbeddedEngine, type EmbeddedEngine } from '@loyalty-gateway/engine';
import type { SqlDatabase } from '@loyalty-gateway/storage';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { DependencyContainer } from 'tsyringe';
import type { AppOptions } from '../app.js';
import { parseSeed } from '../boot/seed-schema.js';
import { loadConfig } from '../config.js';
import { TOKENS, closeContainer, createGatewayContainer, open, perContainer, provide, resource } from '../composition/index.js';
import { createMemoryIdempotencyCache } from '../stores/index.js';
import { migrateGatewayAndEngine, openMigratedDatabase } from './migrated-database.js';

/** The configuration the test containers start from (nothing of it opens a file, a pool or a thread: they override those). */
export const TEST_CONFIG = loadConfig({
  LOG_LEVEL: 'silent',
  DATABASE_URL: '',
  REDIS_URL: '',
  LOYALTY_ENGINE_URL: '',
  GATEWAY_SCHEDULER: 'off',
  GATEWAY_JOURNAL_DAYS: '0',
});

export interface TestContainerOptions {
  /** A database the test owns (migrated here as a boot would, never closed), or the dialect of a fresh one (closed with the container). */
  database: SqlDatabase<any> | 'sqlite' | 'postgres';
  masterKey?: Buffer | undefined;
  /** The seed document applied by the seed boot step. */
  seedDocument: unknown;
  /** An idempotency cache the test owns (never closed here); a memory one otherwise. */
  idempotency?: IdempotencyCache | undefined;
  redis?: Redis | null | undefined;
  /** The process logger; none (logging off) when absent. */
  logger?: FastifyBaseLogger | undefined;
  requestLineLogger?: FastifyBaseLogger | undefined;
  clock?: (() => number) | undefined;
  /** The engine the app talks to, made from the embedded one (the embedded one itself when absent). */
  engine?: ((embedded: EmbeddedEngine) => LoyaltyEngine) | undefined;
  /** App options a test sets beyond the registrations (rate limit, environment, admin...). */
  app?: Partial<AppOptions> | undefined;
}

/**
 * A child of the composition root with the same registrations, overriding only what a test fakes:
 * one database for the gateway and the in-process embedded engine (SQLite in memory or a
 * PostgreSQL schema), a random master key, the seed document, a memory idempotency cache, logging
 * off; no metrics, journal, ledger checkpoint thread, featured doors, operator side or demo sandbox
 * unless a fixture registers them. Resolve `TOKENS.app` from it; `closeContainer` closes what it opened.
 */
export function createTestContainer(options: TestContainerOptions): DependencyContainer {
  const c = createGatewayContainer(TEST_CONFIG).createChildContainer();
  const given = typeof options.database === 'string' ? null : options.database;
  const dialect = typeof options.database === 'string' ? options.database : 'sqlite';
  provide(
    c,
    TOKENS.gatewayDatabase,
    given
      ? perContainer(async () => {
          await migrateGatewayAndEngine(given); // what that process's boot runs
          return given;
        })
      : resource(
          'test database',
          () => openMigratedDatabase(dialect),
          (database) => database.close(),
        ),
  );
  provide(c, TOKENS.masterKey, { useValue: Promise.resolve(options.masterKey ?? randomBytes(32)) });
  provide(
    c,
    TOKENS.embeddedEngine,
    resource(
      'embedded engine',
      async (r) => createEmbeddedEngine({ database: await open(r, TOKENS.gatewayDatabase) }),
      (engine) => engine.close(),
    ),
  );
  provide(
    c,
    TOKENS.engine,
    perContainer(async (r) => {
      const embedded = (await open(r, TOKENS.embeddedEngine))!;
      return options.engine ? options.engine(embedded) : embedded;
    }),
  );
  provide(
    c,
    TOKENS.seedDocument,
    perContainer(async () => {
      const parsed = parseSeed(options.seedDocument);
      if (!('seed' in parsed)) throw new Error(`test seed invalid: ${JSON.stringify(parsed.issues)}`);
      return parsed.seed;
    }),
  );
  provide(
    c,
    TOKENS.idempotency,
    options.idempotency
      ? { useValue: Promise.resolve(options.idempotency) }
      : resource(
          'idempotency cache',
          async () => createMemoryIdempotencyCache(),
          (cache) => cache.close(),
        ),
  );
  provide(c, TOKENS.redis, { useValue: Promise.resolve(options.redis ?? null) });
  provide(c, TOKENS.logger, { useValue: options.logger ?? null });
  provide(c, TOKENS.requestLineLogger, { useValue: options.requestLineLogger });
  provide(c, TOKENS.clock, { useValue: options.clock ?? Date.now });
  // The ledger's checkpoint thread too: the engine's database here is the test's, not a file of the data directory.
  for (const off of [TOKENS.metrics, TOKENS.journal, TOKENS.ledgerCheckpoints, TOKENS.featured, TOKENS.operatorSide, TOKENS.demoStep])
    c.register(off, { useFactory: () => Promise.resolve(null) });
  provide(c, TOKENS.appOptionsOverride, {
    useValue: { rateLimit: { max: 100_000 }, refusalLimit: undefined, http: undefined, trustedProxies: undefined, ...options.app },
  });
  return c;
}

/** Resolve `token` from `c`; when that fails, close what was opened and rethrow. */
export async function openOrClose<T>(c: DependencyContainer, token: Parameters<typeof open<T>>[1]): Promise<T> {
  try {
    return await open(c, token);
  } catch (error) {
    await closeContainer(c);
    throw error;
  }
}
