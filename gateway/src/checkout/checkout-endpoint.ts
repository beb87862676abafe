import type { IdempotencyCache, LoyaltyEngine } from '@loyalty-gateway/core';
import type { FastifyRequest } from 'fastify';
import type { CatalogPullerOf } from './catalog-puller-of.js';
import type { CheckoutFeature } from './checkout-features.js';

/** What the checkout handlers need: the engine port and the 24-hour idempotency cache. */
export interface CheckoutDeps {
  engine: LoyaltyEngine;
  cache: IdempotencyCache;
  /** A cache failure is reported and treated as a miss: the ledger still decides. */
  onCacheError: (error: unknown, operation: 'get' | 'set') => void;
  /** Who pulls a vendor's catalog (catalog sync refuses pushes of those); every push is accepted when absent. */
  catalogPullerOf?: CatalogPullerOf | undefined;
}

/**
 * One `x-status: coming` endpoint: its feature name (GATEWAY_FEATURES), path, 200 response schema
 * and handler. The handler runs after v1 authentication, so `request.connection` is set.
 */
export interface CheckoutEndpoint {
  feature: CheckoutFeature;
  path: string;
  responseSchema: Record<string, unknown>;
  handler: (deps: CheckoutDeps) => (request: FastifyRequest) => Promise<unknown>;
}
