import { randomBytes } from 'node:crypto';
import type { AnyAdapter, IdempotencyCache } from '@loyalty-gateway/core';
import { createEmbeddedEngine, type EmbeddedEngine } from '@loyalty-gateway/engine';
import type { SqlDatabase } from '@loyalty-gateway/storage';
import type { FastifyInstance, FastifyServerFactory } from 'fastify';
import { buildApp } from '../app.js';
import type { HandshakeLimits } from '../featured/handshake-limiter.js';
import type { WebhookFetchPolicy } from '../featured/webhook-fetch-policy.js';
import { parseSeed } from '../boot/seed-schema.js';
import { applySeed } from '../boot/seed.js';
import {
  createGatewayStore,
  createMemoryIdempotencyCache,
  createVendorNoteStore,
  type GatewayStore,
  type VendorNoteStore,
} from '../stores/index.js';
import { openMigratedDatabase } from './migrated-database.js';

export interface FeaturedGateway {
  app: FastifyInstance;
  engine: EmbeddedEngine;
  store: GatewayStore;
  notes: VendorNoteStore;
  database: SqlDatabase<any>;
  /** The same idempotency cache the doors use (the reconciliation runner shares it in production). */
  idempotency: IdempotencyCache;
  /** Wallet balance of a member of merchant m-bean, read through the engine's eligibility. */
  balance(membershipId: string): Promise<number>;
  close(): Promise<void>;
}

export interface FeaturedGatewayOptions {
  seedDocument: unknown;
  adapters?: readonly AnyAdapter[];
  publicUrl?: string;
  serverFactory?: FastifyServerFactory;
  dialect?: 'sqlite' | 'postgres';
  clock?: () => number;
  /** The door's fetch-back budget (the production WEBHOOK_FETCH_POLICY unless given). */
  fetchPolicy?: Partial<WebhookFetchPolicy>;
  /** Unsigned handshake limits (the production HANDSHAKE_LIMITS unless given). */
  handshakeLimits?: HandshakeLimits;
}

/**
 * A real gateway with the featured doors mounted, on a fresh database (SQLite in memory, or a
 * PostgreSQL schema), seeded, with the production fetch-back budget unless the test sets one.
 */
export async function openFeaturedGateway(options: FeaturedGatewayOptions): Promise<FeaturedGateway> {
  const database: SqlDatabase<any> = await openMigratedDatabase(options.dialect ?? 'sqlite');
  const store = await createGatewayStore({ database, masterKey: randomBytes(32) });
  const notes = await createVendorNoteStore({ database });
  const engine = await createEmbeddedEngine({ database });
  const parsed = parseSeed(options.seedDocument);
  if (!('seed' in parsed)) throw new Error(`featured test seed invalid: ${JSON.stringify(parsed.issues)}`);
  await applySeed(parsed.seed, { store, engine });
  const idempotency = createMemoryIdempotencyCache();
  const app = await buildApp({
    engine,
    connections: store,
    idempotency,
    clock: options.clock,
    rateLimit: { max: 100_000 },
    logger: false,
    serverFactory: options.serverFactory,
    featured: {
      store,
      notes,
      adapters: options.adapters,
      publicUrl: options.publicUrl,
      fetchPolicy: options.fetchPolicy,
      handshakeLimits: options.handshakeLimits,
    },
  });
  return {
    app,
    engine,
    store,
    notes,
    database,
    idempotency,
    async balance(membershipId) {
      const result = await engine.eligibility({
        merchantId: 'm-bean',
        outletId: 'o-till',
        source: { vendor: 'featured-test', storeId: 'balance-check' },
        customer: { type: 'membershipId', value: membershipId },
      });
      return result.walletBalance;
    },
    async close() {
      await app.close();
      await engine.close();
      await store.close();
      await idempotency.close();
      await database.close();
    },
  };
}
