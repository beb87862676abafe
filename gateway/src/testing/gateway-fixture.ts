import { signV1, type IdempotencyCache, type LoyaltyEngine } from '@loyalty-gateway/core';
import type { EmbeddedEngine } from '@loyalty-gateway/engine';
import type { SqlDatabase } from '@loyalty-gateway/storage';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Redis } from 'ioredis';
import type { AppOptions } from '../app.js';
import { TOKENS, closeContainer, open } from '../composition/index.js';
import type { GatewayStore } from '../stores/index.js';
import { SECRET, STORE, VENDOR, testSeedDocument } from './test-seed.js';
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
  database: SqlDatabase<any>;
  masterKey: Buffer;
  /** Sign `body` (an object is JSON-serialised once) and POST it to /webhooks/generic. */
  send(body: unknown, options?: SendOptions): Promise<LightMyRequestResponse>;
  /** Sign `body` the same way and POST it to any path (the checkout endpoints). */
  post(url: string, body: unknown, options?: SendOptions): Promise<LightMyRequestResponse>;
  balance(membershipId: string): Promise<number>;
  close(): Promise<void>;
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

/** A real gateway on a fresh database (SQLite in memory, or a PostgreSQL schema), seeded. */
export async function openGateway(
  options: {
    dialect?: 'sqlite' | 'postgres';
    idempotency?: IdempotencyCache;
    redis?: Redis | null;
    rateLimit?: AppOptions['rateLimit'];
    clock?: () => number;
    database?: SqlDatabase<any>;
    /** Wrap the real engine (fault injection: what the gateway does when the engine fails). */
    wrapEngine?: (engine: EmbeddedEngine) => EmbeddedEngine;
    loggerInstance?: AppOptions['loggerInstance'];
    requestLineLogger?: AppOptions['requestLineLogger'];
    /** Needed to read the secrets of an existing database (another process on it). */
    masterKey?: Buffer;
    /** The engine the app talks to instead of the embedded one (e.g. an HTTP engine); the embedded one is still seeded. */
    appEngine?: LoyaltyEngine;
    /** GATEWAY_ENV / GATEWAY_FEATURES of the app (development, nothing listed, by default). */
    environment?: AppOptions['environment'];
    features?: AppOptions['features'];
    /** Another seed document (same format as testSeedDocument()). */
    seedDocument?: unknown;
    refusalLimit?: AppOptions['refusalLimit'];
    trustedProxies?: AppOptions['trustedProxies'];
    admin?: AppOptions['admin'];
  } = {},
): Promise<GatewayFixture> {
  const c = createTestContainer({
    database: options.database ?? options.dialect ?? 'sqlite',
    masterKey: options.masterKey,
    seedDocument: options.seedDocument ?? testSeedDocument(),
    idempotency: options.idempotency,
    redis: options.redis,
    logger: options.loggerInstance,
    requestLineLogger: options.requestLineLogger,
    clock: options.clock,
    engine: (engine) => options.appEngine ?? (options.wrapEngine ? options.wrapEngine(engine) : engine),
    app: {
      rateLimit: options.rateLimit ?? { max: 100_000 },
      environment: options.environment,
      features: options.features,
      refusalLimit: options.refusalLimit,
      trustedProxies: options.trustedProxies,
      admin: options.admin,
    },
  });
  const app = await openOrClose(c, TOKENS.app);
  const engine = (await open(c, TOKENS.embeddedEngine))!;
  const store = await open(c, TOKENS.store);
  const database = await open(c, TOKENS.gatewayDatabase);
  const masterKey = await open(c, TOKENS.masterKey);
  return {
    app,
    engine,
    store,
    database,
    masterKey,
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
        merchantId: 'm-bean',
        outletId: 'o-downtown',
        source: { vendor: VENDOR, storeId: STORE },
        customer: { type: 'membershipId', value: membershipId },
      });
      return result.walletBalance;
    },
    close: () => closeContainer(c),
  };
}
