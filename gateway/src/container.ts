import 'reflect-metadata';
import type { ConnectionStore, IdempotencyCache, LoyaltyEngine } from '@loyalty-gateway/core';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { container as rootContainer, instanceCachingFactory, type DependencyContainer } from 'tsyringe';
import type { AppOptions } from './app.js';
import type { GatewayConfig } from './config.js';

/**
 * Explicit injection tokens. Only this composition root (and main / startGateway, which call it)
 * touches tsyringe; everything else receives plain objects. No decorator metadata is relied on.
 */
export const TOKENS = {
  config: Symbol('GatewayConfig'),
  logger: Symbol('Logger'),
  clock: Symbol('Clock'),
  engine: Symbol('LoyaltyEngine'),
  connections: Symbol('ConnectionStore'),
  idempotency: Symbol('IdempotencyCache'),
  redis: Symbol('Redis'),
  appOptions: Symbol('AppOptions'),
} as const;

/** Resources the boot sequence opened (asynchronously) before the container is assembled. */
export interface GatewayResources {
  config: GatewayConfig;
  logger: FastifyBaseLogger;
  /** The request line's logger (GatewayLogging.requestLine); the app's own children otherwise. */
  requestLineLogger?: FastifyBaseLogger | undefined;
  engine: LoyaltyEngine;
  connections: ConnectionStore;
  idempotency: IdempotencyCache;
  redis: Redis | null;
  /** Readiness probe of the gateway store (GET /ready). */
  storePing?: (() => Promise<void>) | undefined;
}

/** A child container with every port registered by token, and the app options derived from them. */
export function createGatewayContainer(resources: GatewayResources): DependencyContainer {
  const c = rootContainer.createChildContainer();
  c.register(TOKENS.config, { useFactory: () => resources.config });
  c.register(TOKENS.logger, { useFactory: () => resources.logger });
  c.register(TOKENS.clock, { useFactory: () => Date.now });
  c.register(TOKENS.engine, { useFactory: () => resources.engine });
  c.register(TOKENS.connections, { useFactory: () => resources.connections });
  c.register(TOKENS.idempotency, { useFactory: () => resources.idempotency });
  c.register(TOKENS.redis, { useFactory: () => resources.redis });
  c.register(TOKENS.appOptions, {
    useFactory: instanceCachingFactory<AppOptions>((r) => ({
      engine: r.resolve<LoyaltyEngine>(TOKENS.engine),
      connections: r.resolve<ConnectionStore>(TOKENS.connections),
      idempotency: r.resolve<IdempotencyCache>(TOKENS.idempotency),
      redis: r.resolve<Redis | null>(TOKENS.redis),
      clock: r.resolve<() => number>(TOKENS.clock),
      rateLimit: { max: r.resolve<GatewayConfig>(TOKENS.config).GATEWAY_RATE_LIMIT },
      loggerInstance: r.resolve<FastifyBaseLogger>(TOKENS.logger),
      requestLineLogger: resources.requestLineLogger,
      environment: r.resolve<GatewayConfig>(TOKENS.config).GATEWAY_ENV,
      features: r.resolve<GatewayConfig>(TOKENS.config).GATEWAY_FEATURES,
      storePing: resources.storePing,
    })),
  });
  return c;
}
