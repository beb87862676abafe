import type { HttpClient, IdempotencyCache, LoyaltyEngine } from '@loyalty-gateway/core';
import type { EmbeddedEngine } from '@loyalty-gateway/engine';
import type { SqlDatabase } from '@loyalty-gateway/storage';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import type { OperatorSide } from '../admin/index.js';
import type { AppOptions } from '../app.js';
import type { DemoCredentials } from '../boot/demo.js';
import type { AdminTokenSource } from '../boot/development-admin-token.js';
import type { GatewayDatabases } from '../boot/open-databases.js';
import type { ParsedSeed } from '../boot/seed-schema.js';
import type { GatewayConfig } from '../config.js';
import type { GatewayLogging } from '../http/logger-options.js';
import type { HttpEngine } from '../engine-client/index.js';
import type { FeaturedDoorOptions, VendorChanges } from '../featured/index.js';
import type { DeliveryJournal } from '../journal/index.js';
import type { ReconcileRunStore } from '../reconcile/reconcile-run-store.js';
import type { GatewayMetrics } from '../metrics/index.js';
import type { Reconciler } from '../reconcile/index.js';
import type { CatalogRunner, CatalogScheduler } from '../scheduler/index.js';
import type { CatalogRunStore, GatewayStore, VendorNoteStore } from '../stores/index.js';
import type { RunHistoryPruning } from '../stores/run-history.js';
import type { SubscriptionManager } from '../subscriptions/index.js';
import type { WebhookPipeline } from '../webhooks/webhook-pipeline.js';
import type { ResourceScope } from './resource-scope.js';

/** A tsyringe token that carries the type it resolves to (resolve it with `get` or `open`). */
export type Token<T> = symbol & { readonly __resolvesTo?: T };
const token = <T>(name: string): Token<T> => Symbol(name) as Token<T>;

/**
 * Every registration of the composition root. Tokens whose type is a Promise are the async
 * resources (opened on first resolve, once per container, closed with the container's scope).
 */
export const TOKENS = {
  /** The container's resources, closed in reverse order of opening. */
  scope: token<ResourceScope>('ResourceScope'),
  config: token<GatewayConfig>('GatewayConfig'),
  /** The process's two pino loggers (LOG_LEVEL). */
  logging: token<GatewayLogging>('GatewayLogging'),
  /** The process logger; null: no logging (tests). */
  logger: token<FastifyBaseLogger | null>('Logger'),
  /** The request line's logger (GatewayLogging.requestLine); the app's own children when undefined. */
  requestLineLogger: token<FastifyBaseLogger | undefined>('RequestLineLogger'),
  clock: token<() => number>('Clock'),
  /** Whether the data dir was empty before this boot (the demo sandbox is created on a first start only). */
  dataDir: token<Promise<{ firstStart: boolean }>>('DataDir'),
  /** The admin token in force: GATEWAY_ADMIN_TOKEN, in development the data dir's generated one, else none (admin off). */
  adminToken: token<Promise<AdminTokenSource>>('AdminToken'),
  databases: token<Promise<GatewayDatabases>>('GatewayDatabases'),
  /** The gateway's database, migrated (the embedded engine shares it on PostgreSQL and in tests). */
  gatewayDatabase: token<Promise<SqlDatabase<any>>>('GatewayDatabase'),
  masterKey: token<Promise<Buffer>>('MasterKey'),
  store: token<Promise<GatewayStore>>('GatewayStore'),
  notes: token<Promise<VendorNoteStore>>('VendorNoteStore'),
  /** The embedded engine (a worker thread in production); null when LOYALTY_ENGINE_URL names a remote one. */
  embeddedEngine: token<Promise<EmbeddedEngine | null>>('EmbeddedEngine'),
  remoteEngine: token<Promise<HttpEngine | null>>('HttpEngine'),
  metrics: token<Promise<GatewayMetrics | null>>('GatewayMetrics'),
  /** The engine every user of the port goes through (timed by the metrics when there are any). */
  engine: token<Promise<LoyaltyEngine>>('LoyaltyEngine'),
  idempotency: token<Promise<IdempotencyCache>>('IdempotencyCache'),
  redis: token<Promise<Redis | null>>('Redis'),
  /** The seed to apply at boot (GATEWAY_SEED_FILE), null when none. */
  seedDocument: token<Promise<ParsedSeed | null>>('SeedDocument'),
  /** Boot step: the seed applied; how many vendors and connections it created. */
  seedStep: token<Promise<{ vendors: number; connections: number } | null>>('SeedStep'),
  /** Boot step: the demo sandbox (development, embedded engine), null when there is none. */
  demoStep: token<Promise<DemoCredentials | null>>('DemoStep'),
  /** Boot steps in order: the seed, then the demo sandbox (what the app and the jobs wait for). */
  seeded: token<Promise<void>>('Seeded'),
  journal: token<Promise<DeliveryJournal | null>>('DeliveryJournal'),
  /** The journal's hourly pruning (a background job); null without a journal. */
  journalPruning: token<Promise<{ stop(): void } | null>>('JournalPruning'),
  /**
   * The embedded SQLite ledger's background checkpoints on a thread of their own, when no journal
   * writer thread runs them (the journal off); null otherwise.
   */
  ledgerCheckpoints: token<Promise<{ close(): Promise<void> } | null>>('LedgerCheckpoints'),
  /** The one webhook pipeline: the doors, the earn preview, reconciliation, replay and the adapter preview. */
  pipeline: token<Promise<WebhookPipeline>>('WebhookPipeline'),
  /** The HTTP client of vendors' APIs (pulls, subscriptions): the vendor-call policy and the outbound rule. */
  vendorHttp: token<HttpClient>('VendorHttpClient'),
  catalogRuns: token<Promise<CatalogRunStore>>('CatalogRunStore'),
  reconcileRuns: token<Promise<ReconcileRunStore>>('ReconcileRunStore'),
  /** Catalog pulls (manual through /admin, or the schedules'); stopped with the container, waiting for running pulls. */
  catalogRunner: token<Promise<CatalogRunner>>('CatalogRunner'),
  /** Order reconciliation (manual through /admin, or scheduled). */
  reconciler: token<Promise<Reconciler>>('Reconciler'),
  subscriptions: token<Promise<SubscriptionManager>>('SubscriptionManager'),
  /** Provider settings changes: admin writes at once, other processes' by polling (started by the schedules job). */
  vendorChanges: token<Promise<VendorChanges>>('VendorChanges'),
  /** The featured doors' options; null: not mounted. */
  featured: token<Promise<FeaturedDoorOptions | null>>('FeaturedDoors'),
  /** /admin (with the console) and /directory; null: none. */
  operatorSide: token<Promise<OperatorSide | null>>('OperatorSide'),
  /** Background job: the catalog and reconciliation schedules (null with GATEWAY_SCHEDULER=off), and the settings polling. */
  schedules: token<Promise<CatalogScheduler | null>>('Schedules'),
  /** Background job: the run history's hourly pruning (GATEWAY_RUNS_DAYS). */
  runHistoryPruning: token<Promise<RunHistoryPruning>>('RunHistoryPruning'),
  /** Boot step: featured vendors whose provider settings cannot work on this gateway, logged (their slugs). */
  settingsReport: token<Promise<string[]>>('SettingsReport'),
  /** Every background job started, after the boot's data steps (opened by startGateway, not by the app). */
  backgroundJobs: token<Promise<void>>('BackgroundJobs'),
  /** Options a test sets on the app beyond what config says (rate-limit window, admin options...); empty in production. */
  appOptionsOverride: token<Partial<AppOptions>>('AppOptionsOverride'),
  /** The app's options without the operator side (the mTLS listener's app is built from them too). */
  appOptions: token<Promise<AppOptions>>('AppOptions'),
  /** The main app (the boot's data steps and the operator side included), not listening yet. */
  app: token<Promise<FastifyInstance>>('App'),
} as const;
