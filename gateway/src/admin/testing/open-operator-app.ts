import { Writable } from 'node:stream';
import { EngineUnavailableError, type AnyAdapter, type LoyaltyEngine } from '@loyalty-gateway/core';
import { createConsoleSessions } from '../../console/index.js';
import { createDeliveryJournal, type DeliveryJournal } from '../../journal/index.js';
import type { EmbeddedEngine } from '@loyalty-gateway/engine';
import type { SqlDatabase } from '@loyalty-gateway/storage';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { pino } from 'pino';
import { adapters as registeredAdapters } from '../../adapters.js';
import { TOKENS, closeContainer, open, perContainer, provide, resource } from '../../composition/index.js';
import { createHttpClient } from '@loyalty-gateway/core';
import { createReconcileRunStore, createReconciler, type Reconciler } from '../../reconcile/index.js';
import { createCatalogRunner, type CatalogRunner } from '../../scheduler/index.js';
import { createSubscriptionManager } from '../../subscriptions/index.js';
import { createWebhookPipeline } from '../../webhooks/webhook-pipeline.js';
import { createCatalogRunStore, type CatalogRunStore, type GatewayStore, type VendorNoteStore } from '../../stores/index.js';
import { testSeedDocument } from '../../testing/test-seed.js';
import { createTestContainer, openOrClose } from '../../testing/test-container.js';

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
    /** The journal's search bound per page (its searchWindow and searchWindows); the journal's defaults when absent. */
    journalSearch?: { window: number; windows: number };
    /** While `down` is true the engine's earn and reverse fail as unreachable (the doors answer 500). */
    engineFault?: { down: boolean };
    /** The engine the doors and checkout call instead of the embedded one (a remote engine client); the admin API keeps the embedded one. */
    engine?: ((embedded: EmbeddedEngine) => LoyaltyEngine) | undefined;
    /** GATEWAY_TRUSTED_PROXIES (none when absent). */
    trustedProxies?: string[];
    /** GATEWAY_REFUSED_LIMIT (none when absent). */
    refusalLimit?: { max: number };
  } = {},
): Promise<OperatorApp> {
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
  const fault = options.engineFault;
  const c = createTestContainer({
    database: options.dialect ?? 'sqlite',
    seedDocument: options.seedDocument ?? operatorSeed(),
    logger,
    // While `fault.down`, the doors' earn and reverse fail as unreachable; admin calls the engine itself.
    engine: (engine) =>
      options.engine
        ? options.engine(engine)
        : fault
          ? {
              ...engine,
              earn: (command, callOptions) =>
                fault.down
                  ? Promise.reject(new EngineUnavailableError('engine unreachable (test fault)'))
                  : engine.earn(command, callOptions),
              reverse: (command, callOptions) =>
                fault.down
                  ? Promise.reject(new EngineUnavailableError('engine unreachable (test fault)'))
                  : engine.reverse(command, callOptions),
            }
          : engine,
    app: { trustedProxies: options.trustedProxies, refusalLimit: options.refusalLimit },
  });
  const adapters = options.adapters ?? registeredAdapters;
  provide(
    c,
    TOKENS.journal,
    options.journal
      ? resource(
          'delivery journal',
          async (r) =>
            createDeliveryJournal({
              database: await open(r, TOKENS.gatewayDatabase),
              masterKey: await open(r, TOKENS.masterKey),
              flushMs: 20,
              ...(options.journalSearch
                ? { searchWindow: options.journalSearch.window, searchWindows: options.journalSearch.windows }
                : {}),
            }),
          (journal) => journal.close(),
        )
      : { useValue: Promise.resolve(null) },
  );
  provide(
    c,
    TOKENS.featured,
    perContainer(async (r) => ({
      store: await open(r, TOKENS.store),
      notes: await open(r, TOKENS.notes),
      adapters,
      publicUrl: options.publicUrl,
    })),
  );
  // The operator side without schedules, its HTTP clients making one attempt (the fakes answer at once).
  let parts: { runs: CatalogRunStore; runner: CatalogRunner; reconciler: Reconciler } | undefined;
  provide(
    c,
    TOKENS.operatorSide,
    resource(
      'operator side',
      async (r) => {
        const database = await open(r, TOKENS.gatewayDatabase);
        const store = await open(r, TOKENS.store);
        const notes = await open(r, TOKENS.notes);
        const engine = (await open(r, TOKENS.embeddedEngine))!;
        const idempotency = await open(r, TOKENS.idempotency);
        const journal = (await open(r, TOKENS.journal)) ?? undefined;
        const runs = await createCatalogRunStore({ database });
        const runner = createCatalogRunner({ store, runs, engine, adapters, logger });
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
        const replayPipeline = journal
          ? createWebhookPipeline({ engine: await open(r, TOKENS.engine), cache: idempotency, onCacheError: () => {} })
          : undefined;
        // The doors' engine and cache, as a gateway's operator side previews adapters with.
        const previewPipeline = createWebhookPipeline({ engine: await open(r, TOKENS.engine), cache: idempotency, onCacheError: () => {} });
        parts = { runs, runner, reconciler };
        return {
          appOptions: {
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
              previewPipeline,
              publicUrl: options.publicUrl,
              consoleSessions: createConsoleSessions({ database, adminToken: token ?? '' }),
              engineSeed: (seed) => engine.applySeed(seed),
              tlsListener: options.tlsListener,
              onVendorChanged: options.onVendorChanged,
              vendorChangeWaitMs: options.vendorChangeWaitMs,
            },
            directory: { store, adapters, publicUrl: options.publicUrl, environment: options.environment },
          },
          close: async () => {
            await reconciler.stop();
            await runner.stop();
          },
        };
      },
      (side) => side.close(),
    ),
  );
  const app = await openOrClose(c, TOKENS.app);
  const { runs, runner, reconciler } = parts!;
  const store = await open(c, TOKENS.store);
  const notes = await open(c, TOKENS.notes);
  const engine = (await open(c, TOKENS.embeddedEngine))!;
  const database = await open(c, TOKENS.gatewayDatabase);
  const journal = (await open(c, TOKENS.journal)) ?? undefined;
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
    close: () => closeContainer(c),
  };
}
