import { Writable } from 'node:stream';
import { signV1, type AnyAdapter, type FetchBackBudget, type IdempotencyCache, type LoyaltyEngine } from '@loyalty-gateway/core';
import type { EmbeddedEngine } from '@loyalty-gateway/engine';
import type { SqlDatabase } from '@loyalty-gateway/storage';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Redis } from 'ioredis';
import { pino } from 'pino';
import { adapters as registeredAdapters } from '../adapters.js';
import type { AppOptions } from '../app.js';
import { TOKENS, closeContainer, open, perContainer, provide } from '../composition/index.js';
import type { HandshakeLimits } from '../featured/handshake-limiter.js';
import type { DeliveryJournal } from '../journal/index.js';
import type { Reconciler } from '../reconcile/index.js';
import type { CatalogRunner } from '../scheduler/index.js';
import type { CatalogRunStore, GatewayStore, VendorNoteStore } from '../stores/index.js';
import { ADMIN_TOKEN, provideOperatorSide, type OperatorOptions } from './operator-side.js';
import { SECRET, STORE, VENDOR, buildSeed } from './seed-builder.js';
import { createTestContainer, openOrClose } from './test-container.js';

export interface SendOptions {
  vendor?: string | null;
  store?: string | null;
  secret?: string;
  /** Unix seconds put in X-Service-Timestamp (and signed); now by default. */
  timestamp?: string | number | null;
  /** Replace the computed signature (null: omit the header). */
  signature?: string | null;
  headers?: Record<string, string>;
  /** Bytes sent when they differ from the bytes signed. */
  sendBody?: string | Buffer;
  contentType?: string | null;
}

export interface GatewayFixture {
  app: FastifyInstance;
  engine: EmbeddedEngine;
  store: GatewayStore;
  notes: VendorNoteStore;
  database: SqlDatabase<any>;
  masterKey: Buffer;
  /** The same idempotency cache the doors use (the reconciliation runner shares it in production). */
  idempotency: IdempotencyCache;
  /** Sign `body` (an object is JSON-serialised once) and POST it to /webhooks/generic. */
  send(body: unknown, options?: SendOptions): Promise<LightMyRequestResponse>;
  /** Sign `body` the same way and POST it to any path (the checkout endpoints). */
  post(url: string, body: unknown, options?: SendOptions): Promise<LightMyRequestResponse>;
  /** Wallet balance of a member of the seed's (first) merchant, read through the engine's eligibility. */
  balance(membershipId: string): Promise<number>;
  close(): Promise<void>;
}

/** The featured doors' parts a test sets (the production ones unless given). */
export interface FeaturedDoorOptions {
  /** The adapters mounted (every registered one when absent). */
  adapters?: readonly AnyAdapter[];
  publicUrl?: string;
  /** The door's fetch-back budget (the production WEBHOOK_FETCH_BACK unless given). */
  fetchPolicy?: Partial<FetchBackBudget>;
  /** Unsigned handshake limits (the production HANDSHAKE_LIMITS unless given). */
  handshakeLimits?: HandshakeLimits;
}

export { ADMIN_TOKEN, type OperatorOptions } from './operator-side.js';

export interface GatewayOptions {
  dialect?: 'sqlite' | 'postgres';
  /** A database the test owns (another process on it); a fresh one of `dialect` otherwise. */
  database?: SqlDatabase<any>;
  /** Needed to read the secrets of an existing database (another process on it). */
  masterKey?: Buffer;
  /** The seed document (`buildSeed()`'s generic one when absent). */
  seedDocument?: unknown;
  idempotency?: IdempotencyCache;
  redis?: Redis | null;
  clock?: () => number;
  /** The process logger: none unless given (with `operator`, one the fixture's `logs` collect). */
  loggerInstance?: AppOptions['loggerInstance'];
  requestLineLogger?: AppOptions['requestLineLogger'];
  /** Wrap the real engine (fault injection: what the gateway does when the engine fails). */
  wrapEngine?: (engine: EmbeddedEngine) => EmbeddedEngine;
  /** The engine the app talks to instead of the embedded one (e.g. an HTTP engine); the embedded one is still seeded. */
  appEngine?: LoyaltyEngine;
  /** The engine the doors and checkout call, made from the embedded one (the admin API keeps the embedded one). */
  engine?: (embedded: EmbeddedEngine) => LoyaltyEngine;
  rateLimit?: AppOptions['rateLimit'];
  /** GATEWAY_ENV / GATEWAY_FEATURES of the app (development, nothing listed, by default). */
  environment?: AppOptions['environment'];
  features?: AppOptions['features'];
  refusalLimit?: AppOptions['refusalLimit'];
  trustedProxies?: AppOptions['trustedProxies'];
  admin?: AppOptions['admin'];
  serverFactory?: AppOptions['serverFactory'];
  /** Mount the featured doors (`true`: the registered adapters, production budgets). */
  featured?: boolean | FeaturedDoorOptions;
  /** Mount the operator side too (its featured doors are `featured`'s or the registered adapters). */
  operator?: OperatorOptions;
}

/** A gateway with the operator side: its parts, its logs and an admin call. */
export interface OperatorGateway extends GatewayFixture {
  runs: CatalogRunStore;
  runner: CatalogRunner;
  reconciler: Reconciler;
  journal: DeliveryJournal | undefined;
  /** Every log line the app wrote (debug and up), as JSON text (empty when `loggerInstance` was given). */
  logs: string[];
  /** An authenticated admin call (JSON body when given). */
  admin(method: string, url: string, body?: unknown, token?: string | null): Promise<LightMyRequestResponse>;
}

export const nowSeconds = () => Math.floor(Date.now() / 1000);

/** Signed headers for raw bytes, with every part overridable (tests of each auth failure). */
export function headersFor(body: string | Buffer, options: SendOptions = {}): Record<string, string> {
  const timestamp = options.timestamp === undefined ? String(nowSeconds()) : options.timestamp;
  const headers: Record<string, string> = {};
  if (options.contentType !== null) headers['content-type'] = options.contentType ?? 'application/json';
  const vendor = options.vendor === undefined ? VENDOR : options.vendor;
  const store = options.store === undefined ? STORE : options.store;
  if (vendor !== null) headers['x-service-vendor'] = vendor;
  if (store !== null) headers['x-service-store'] = store;
  if (timestamp !== null) headers['x-service-timestamp'] = String(timestamp);
  const signature = options.signature === undefined ? signV1(options.secret ?? SECRET, String(timestamp ?? ''), body) : options.signature;
  if (signature !== null) headers['x-service-signature'] = signature;
  return { ...headers, ...options.headers };
}

export const bodyOf = (body: unknown): string | Buffer => (typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body));

/**
 * The one gateway fixture: a real gateway on a fresh database (SQLite in memory, or a PostgreSQL
 * schema), seeded, resolved from a test container (`test-container.ts`); with `featured` its
 * featured doors, with `operator` its operator side (admin API, directory, runner, reconciler,
 * journal when asked) too.
 */
export function openGateway(options: GatewayOptions & { operator: OperatorOptions }): Promise<OperatorGateway>;
export function openGateway(options?: GatewayOptions): Promise<GatewayFixture>;
export async function openGateway(options: GatewayOptions = {}): Promise<GatewayFixture | OperatorGateway> {
  const logs: string[] = [];
  const logger =
    options.loggerInstance ??
    (options.operator
      ? pino(
          { level: 'debug' },
          new Writable({
            write(chunk, _enc, done) {
              logs.push(String(chunk));
              done();
            },
          }),
        )
      : undefined);
  const seedDocument = options.seedDocument ?? buildSeed();
  const c = createTestContainer({
    database: options.database ?? options.dialect ?? 'sqlite',
    masterKey: options.masterKey,
    seedDocument,
    idempotency: options.idempotency,
    redis: options.redis,
    logger,
    requestLineLogger: options.requestLineLogger,
    clock: options.clock,
    engine: (engine) =>
      options.appEngine ?? (options.engine ? options.engine(engine) : options.wrapEngine ? options.wrapEngine(engine) : engine),
    app: {
      rateLimit: options.rateLimit ?? { max: 100_000 },
      environment: options.environment,
      features: options.features,
      refusalLimit: options.refusalLimit,
      trustedProxies: options.trustedProxies,
      admin: options.admin,
      serverFactory: options.serverFactory,
    },
  });
  const doors: FeaturedDoorOptions | undefined =
    typeof options.featured === 'object' ? options.featured : options.featured || options.operator ? {} : undefined;
  if (doors) {
    provide(
      c,
      TOKENS.featured,
      perContainer(async (r) => ({
        store: await open(r, TOKENS.store),
        notes: await open(r, TOKENS.notes),
        adapters: doors.adapters ?? (options.operator ? registeredAdapters : undefined),
        publicUrl: doors.publicUrl,
        fetchPolicy: doors.fetchPolicy,
        handshakeLimits: doors.handshakeLimits,
      })),
    );
  }
  const parts = options.operator
    ? provideOperatorSide(c, options.operator, doors?.adapters ?? registeredAdapters, doors?.publicUrl, logger!)
    : undefined;
  const app = await openOrClose(c, TOKENS.app);
  const engine = (await open(c, TOKENS.embeddedEngine))!;
  const store = await open(c, TOKENS.store);
  const notes = await open(c, TOKENS.notes);
  const database = await open(c, TOKENS.gatewayDatabase);
  const masterKey = await open(c, TOKENS.masterKey);
  const idempotency = await open(c, TOKENS.idempotency);
  const merchant = (seedDocument as { merchants?: { id: string; outlets: { id: string }[] }[] }).merchants?.[0];
  const fixture: GatewayFixture = {
    app,
    engine,
    store,
    notes,
    database,
    masterKey,
    idempotency,
    send(body, sendOptions = {}) {
      const signed = bodyOf(body);
      return app.inject({
        method: 'POST',
        url: '/webhooks/generic',
        headers: headersFor(signed, sendOptions),
        payload: sendOptions.sendBody ?? signed,
      });
    },
    post(url, body, sendOptions = {}) {
      const signed = bodyOf(body);
      return app.inject({ method: 'POST', url, headers: headersFor(signed, sendOptions), payload: sendOptions.sendBody ?? signed });
    },
    async balance(membershipId) {
      const result = await engine.eligibility({
        merchantId: merchant?.id ?? 'm-bean',
        outletId: merchant?.outlets[0]?.id ?? 'o-downtown',
        source: { vendor: VENDOR, storeId: STORE },
        customer: { type: 'membershipId', value: membershipId },
      });
      return result.walletBalance;
    },
    close: () => closeContainer(c),
  };
  if (!parts) return fixture;
  const { runs, runner, reconciler } = parts.opened!;
  return {
    ...fixture,
    runs,
    runner,
    reconciler,
    journal: (await open(c, TOKENS.journal)) ?? undefined,
    logs,
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
  };
}
