import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { EngineUnavailableError, type AnyAdapter } from '@loyalty-gateway/core';
import { createConsoleSessions } from '../../console/index.js';
import { createDeliveryJournal, type DeliveryJournal } from '../../journal/index.js';
import { createEmbeddedEngine, type EmbeddedEngine } from '@loyalty-gateway/engine';
import type { SqlDatabase } from '@loyalty-gateway/storage';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { pino } from 'pino';
import { adapters as registeredAdapters } from '../../adapters.js';
import { buildApp } from '../../app.js';
import { parseSeed } from '../../boot/seed-schema.js';
import { applySeed } from '../../boot/seed.js';
import { createHttpClient } from '@loyalty-gateway/core';
import { createReconcileRunStore, createReconciler, type Reconciler } from '../../reconcile/index.js';
import { createCatalogRunner, type CatalogRunner } from '../../scheduler/index.js';
import { createSubscriptionManager } from '../../subscriptions/index.js';
import { createWebhookPipeline } from '../../webhooks/webhook-pipeline.js';
import {
  createCatalogRunStore,
  createGatewayStore,
  createMemoryIdempotencyCache,
  createVendorNoteStore,
  type CatalogRunStore,
  type GatewayStore,
  type VendorNoteStore,
} from '../../stores/index.js';
import { testSeedDocument } from '../../testing/test-seed.js';
import { openMigratedDatabase } from '../../testing/migrated-database.js';

export const ADMIN_TOKEN = 'adm_test_token_0123456789abcdef0123';

export interface OperatorApp {
  app: FastifyInstance;
  store: GatewayStore;
  notes: VendorNoteStore;
  runs: CatalogRunStore;
  runner: CatalogRunner;
  reconciler: Reconciler;
  engine: EmbeddedEngine;
  journal: DeliveryJournal | undefined;
  database: SqlDatabase<any>;
  /** Every log line the app wrote (debug and up), as JSON text. */
  logs: string[];
  /** An authenticated admin call (JSON body when given). */
  admin(method: string, url: string, body?: unknown, token?: string | null): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

/** The test seed with the three featured vendors' rows (generic until promoted) and Clover settings. */
export function operatorSeed(settings: { cloverApiBaseUrl?: string; shopifyApiBaseUrl?: string } = {}) {
  const doc = testSeedDocument();
  doc.vendors.push(
    {
      slug: 'shopify',
      name: 'Shopify',
      tier: 'featured',
      settings: {
        appSecret: 'shopify-app-secret-value',
        ...(settings.shopifyApiBaseUrl ? { apiBaseUrl: settings.shopifyApiBaseUrl } : {}),
      },
    } as never,
    {
      slug: 'clover',
      name: 'Clover',
      tier: 'generic',
      settings: { authCode: 'clover-auth-code-secret', apiBaseUrl: settings.cloverApiBaseUrl ?? 'https://api.clover.com' },
    } as never,
  );
  return doc;
}

/** A real app (SQLite in memory or a PostgreSQL schema) with /admin, /directory and the featured doors mounted. */
export async function openOperatorApp(
  options: {
    dialect?: 'sqlite' | 'postgres';
    token?: string | undefined;
    adapters?: readonly AnyAdapter[];
    publicUrl?: string;
    seedDocument?: unknown;
    /** Whether the gateway runs its HTTPS listener (mTLS `direct`); not checked when absent. */
    tlsListener?: boolean;
    /** GATEWAY_ENV as the directory sees it (development when absent). */
    environment?: string;
    /** What the admin API calls after writing a vendor (the process's settings-change feed). */
    onVendorChanged?: () => Promise<void>;
    /** The longest an admin write waits for onVendorChanged. */
    vendorChangeWaitMs?: number;
    /** Mount the delivery journal (and its admin routes and replay). */
    journal?: boolean;
    /** While `down` is true the engine's earn and reverse fail as unreachable (the doors answer 500). */
    engineFault?: { down: boolean };
    /** GATEWAY_TRUSTED_PROXIES (none when absent). */
    trustedProxies?: string[];
  } = {},
): Promise<OperatorApp> {
  const database = await openMigratedDatabase(options.dialect ?? 'sqlite');
  const masterKey = randomBytes(32);
  const store = await createGatewayStore({ database, masterKey });
  const engine = await createEmbeddedEngine({ database });
  const parsed = parseSeed(options.seedDocument ?? operatorSeed());
  if (!('seed' in parsed)) throw new Error(`seed invalid: ${JSON.stringify(parsed.issues)}`);
  await applySeed(parsed.seed, { store, engine });
  const notes = await createVendorNoteStore({ database });
  const runs = await createCatalogRunStore({ database });
  const logs: string[] = [];
  const logger = pino(
    { level: 'debug' },
    new Writable({
      write(chunk, _enc, done) {
        logs.push(String(chunk));
        done();
      },
    }),
  );
  const adapters = options.adapters ?? registeredAdapters;
  const runner = createCatalogRunner({ store, runs, engine, adapters, logger });
  const idempotency = createMemoryIdempotencyCache();
  const reconciler = createReconciler({
    store,
    runs: await createReconcileRunStore({ database }),
    adapters,
    logger,
    http: createHttpClient({ maxAttempts: 1, timeoutMs: 2_000 }),
    pipeline: createWebhookPipeline({ engine, cache: idempotency, onCacheError: () => {} }),
  });
  const subscriptions = createSubscriptionManager({
    store,
    adapters,
    logger,
    http: createHttpClient({ maxAttempts: 1, timeoutMs: 2_000 }),
    publicUrl: options.publicUrl,
  });
  const token = 'token' in options ? options.token : ADMIN_TOKEN;
  const journal = options.journal ? await createDeliveryJournal({ database, masterKey, flushMs: 20 }) : undefined;
  const fault = options.engineFault;
  const appEngine: typeof engine = fault
    ? {
        ...engine,
        earn: (command, callOptions) =>
          fault.down ? Promise.reject(new EngineUnavailableError('engine unreachable (test fault)')) : engine.earn(command, callOptions),
        reverse: (command, callOptions) =>
          fault.down ? Promise.reject(new EngineUnavailableError('engine unreachable (test fault)')) : engine.reverse(command, callOptions),
      }
    : engine;
  const replayPipeline = journal ? createWebhookPipeline({ engine: appEngine, cache: idempotency, onCacheError: () => {} }) : undefined;
  const app = await buildApp({
    journal,
    trustedProxies: options.trustedProxies,
    engine: appEngine,
    connections: store,
    idempotency,
    rateLimit: { max: 100_000 },
    loggerInstance: logger,
    admin: {
      token,
      store,
      engine,
      notes,
      runs,
      runner,
      reconciler,
      subscriptions,
      adapters,
      journal,
      replayPipeline,
      consoleSessions: createConsoleSessions({ database, adminToken: token ?? '' }),
      engineSeed: (seed) => engine.applySeed(seed),
      tlsListener: options.tlsListener,
      onVendorChanged: options.onVendorChanged,
      vendorChangeWaitMs: options.vendorChangeWaitMs,
    },
    directory: { store, adapters, publicUrl: options.publicUrl, environment: options.environment },
    // The featured doors too, so a promotion through /admin can be followed by a native POST.
    featured: { store, notes, adapters, publicUrl: options.publicUrl },
  });
  return {
    app,
    store,
    notes,
    runs,
    runner,
    reconciler,
    engine,
    database,
    logs,
    journal,
    admin(method, url, body, given = ADMIN_TOKEN) {
      return app.inject({
        method: method as 'GET',
        url,
        headers: {
          ...(given === null ? {} : { authorization: `Bearer ${given}` }),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { payload: typeof body === 'string' ? body : JSON.stringify(body) }),
      });
    },
    async close() {
      await journal?.close();
      await reconciler.stop();
      await runner.stop();
      await app.close();
      await engine.close();
      await store.close();
      await database.close();
    },
  };
}
