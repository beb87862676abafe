import type { AnyAdapter, IdempotencyCache } from '@loyalty-gateway/core';
import type { EmbeddedEngine } from '@loyalty-gateway/engine';
import type { SqlDatabase } from '@loyalty-gateway/storage';
import type { FastifyInstance, FastifyServerFactory } from 'fastify';
import { TOKENS, closeContainer, open, perContainer, provide } from '../composition/index.js';
import type { HandshakeLimits } from '../featured/handshake-limiter.js';
import type { WebhookFetchPolicy } from '../featured/webhook-fetch-policy.js';
import type { GatewayStore, VendorNoteStore } from '../stores/index.js';
import { createTestContainer, openOrClose } from './test-container.js';

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
  /** GATEWAY_TRUSTED_PROXIES of the app (none unless given). */
  trustedProxies?: readonly string[];
}

/**
 * A real gateway with the featured doors mounted, on a fresh database (SQLite in memory, or a
 * PostgreSQL schema), seeded, with the production fetch-back budget unless the test sets one.
 */
export async function openFeaturedGateway(options: FeaturedGatewayOptions): Promise<FeaturedGateway> {
  const c = createTestContainer({
    database: options.dialect ?? 'sqlite',
    seedDocument: options.seedDocument,
    clock: options.clock,
    app: { serverFactory: options.serverFactory, trustedProxies: options.trustedProxies },
  });
  provide(
    c,
    TOKENS.featured,
    perContainer(async (r) => ({
      store: await open(r, TOKENS.store),
      notes: await open(r, TOKENS.notes),
      adapters: options.adapters,
      publicUrl: options.publicUrl,
      fetchPolicy: options.fetchPolicy,
      handshakeLimits: options.handshakeLimits,
    })),
  );
  const app = await openOrClose(c, TOKENS.app);
  const engine = (await open(c, TOKENS.embeddedEngine))!;
  const store = await open(c, TOKENS.store);
  const notes = await open(c, TOKENS.notes);
  const database = await open(c, TOKENS.gatewayDatabase);
  const idempotency = await open(c, TOKENS.idempotency);
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
    close: () => closeContainer(c),
  };
}
