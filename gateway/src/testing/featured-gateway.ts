import type { AnyAdapter, FetchBackBudget } from '@loyalty-gateway/core';
import type { FastifyServerFactory } from 'fastify';
import type { HandshakeLimits } from '../featured/handshake-limiter.js';
import { openGateway, type GatewayFixture } from './gateway-fixture.js';

/** The gateway fixture with the featured doors mounted (what the featured suites call it). */
export type FeaturedGateway = GatewayFixture;

export interface FeaturedGatewayOptions {
  seedDocument: unknown;
  adapters?: readonly AnyAdapter[];
  publicUrl?: string;
  serverFactory?: FastifyServerFactory;
  dialect?: 'sqlite' | 'postgres';
  clock?: () => number;
  /** The door's fetch-back budget (the production WEBHOOK_FETCH_BACK unless given). */
  fetchPolicy?: Partial<FetchBackBudget>;
  /** Unsigned handshake limits (the production HANDSHAKE_LIMITS unless given). */
  handshakeLimits?: HandshakeLimits;
  /** GATEWAY_TRUSTED_PROXIES of the app (none unless given). */
  trustedProxies?: readonly string[];
}

/**
 * `openGateway` with the featured doors mounted, on a fresh database (SQLite in memory, or a
 * PostgreSQL schema), seeded, with the production fetch-back budget unless the test sets one.
 */
export function openFeaturedGateway(options: FeaturedGatewayOptions): Promise<FeaturedGateway> {
  const { adapters, publicUrl, fetchPolicy, handshakeLimits, trustedProxies, ...rest } = options;
  return openGateway({
    ...rest,
    trustedProxies: trustedProxies as string[] | undefined,
    featured: { adapters, publicUrl, fetchPolicy, handshakeLimits },
  });
}
