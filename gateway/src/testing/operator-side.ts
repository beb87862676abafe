import { createHttpClient, type AnyAdapter } from '@loyalty-gateway/core';
import type { FastifyBaseLogger } from 'fastify';
import type { DependencyContainer } from 'tsyringe';
import { TOKENS, open, provide, resource } from '../composition/index.js';
import { createConsoleSessions } from '../console/index.js';
import { createDeliveryJournal } from '../journal/index.js';
import { createReconcileRunStore, createReconciler, type Reconciler } from '../reconcile/index.js';
import { createCatalogRunner, type CatalogRunner } from '../scheduler/index.js';
import { createCatalogRunStore, type CatalogRunStore } from '../stores/index.js';
import { createSubscriptionManager } from '../subscriptions/index.js';
import { createWebhookPipeline } from '../webhooks/webhook-pipeline.js';

/** The operator side `openGateway` mounts with its `operator` option (the operator app's admin API, directory, runner, reconciler). */

export const ADMIN_TOKEN = 'adm_test_token_0123456789abcdef0123';

/** The operator side (/admin, /directory, catalog runner, reconciler; the featured doors with it). */
export interface OperatorOptions {
  /** The admin bearer token (ADMIN_TOKEN when the key is absent; admin off when given as undefined). */
  token?: string | undefined;
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
}

/**
 * Registers the journal (when asked) and the operator side without schedules, its HTTP clients
 * making one attempt (the fakes answer at once); `opened` holds its parts once the app is resolved.
 */
export function provideOperatorSide(
  c: DependencyContainer,
  options: OperatorOptions,
  adapters: readonly AnyAdapter[],
  publicUrl: string | undefined,
  logger: FastifyBaseLogger,
): { opened?: { runs: CatalogRunStore; runner: CatalogRunner; reconciler: Reconciler } } {
  const parts: { opened?: { runs: CatalogRunStore; runner: CatalogRunner; reconciler: Reconciler } } = {};
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
          publicUrl,
        });
        const token = 'token' in options ? options.token : ADMIN_TOKEN;
        const replayPipeline = journal
          ? createWebhookPipeline({ engine: await open(r, TOKENS.engine), cache: idempotency, onCacheError: () => {} })
          : undefined;
        // The doors' engine and cache, as a gateway's operator side previews adapters with.
        const previewPipeline = createWebhookPipeline({ engine: await open(r, TOKENS.engine), cache: idempotency, onCacheError: () => {} });
        parts.opened = { runs, runner, reconciler };
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
              publicUrl,
              consoleSessions: createConsoleSessions({ database, adminToken: token ?? '' }),
              engineSeed: (seed) => engine.applySeed(seed),
              tlsListener: options.tlsListener,
              onVendorChanged: options.onVendorChanged,
              vendorChangeWaitMs: options.vendorChangeWaitMs,
            },
            directory: { store, adapters, publicUrl, environment: options.environment },
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
  return parts;
}
