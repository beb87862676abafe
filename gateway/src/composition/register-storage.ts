import { tracingOn } from '@loyalty-gateway/core';
import type { DependencyContainer } from 'tsyringe';
import { openDatabases } from '../boot/open-databases.js';
import type { GatewayConfig } from '../config.js';
import { createGatewayStore, createIdempotencyCache, createRedisClient, createVendorNoteStore, loadMasterKey } from '../stores/index.js';
import { traceIdempotencyCache } from '../tracing/trace-idempotency-cache.js';
import { get, MiB, open, perContainer, provide, resource } from './container.js';
import { TOKENS } from './tokens.js';

/** Databases (opened and migrated once), master key, the gateway's stores, the idempotency cache, Redis. */
export function registerStorage(c: DependencyContainer, config: GatewayConfig): void {
  provide(
    c,
    TOKENS.databases,
    resource(
      'databases',
      async (r) => {
        await open(r, TOKENS.dataDir);
        // Opened and migrated here, once per boot; the stores assume a migrated database.
        return openDatabases(
          config,
          (error) => get(r, TOKENS.logger)?.warn({ err: error }, 'PostgreSQL connection lost; the pool reconnects on its next use'),
          (message) => get(r, TOKENS.logger)?.warn(message),
        );
      },
      (databases) => databases.close(),
    ),
  );
  provide(
    c,
    TOKENS.gatewayDatabase,
    perContainer(async (r) => (await open(r, TOKENS.databases)).gateway),
  );
  provide(
    c,
    TOKENS.masterKey,
    perContainer(async (r) => {
      await open(r, TOKENS.gatewayDatabase);
      return loadMasterKey({
        value: config.GATEWAY_MASTER_KEY,
        dataDir: config.GATEWAY_DATA_DIR,
        environment: config.GATEWAY_ENV,
        warn: (message) => get(r, TOKENS.logger)?.warn(message),
      });
    }),
  );
  provide(
    c,
    TOKENS.store,
    resource(
      'gateway store',
      async (r) => createGatewayStore({ database: await open(r, TOKENS.gatewayDatabase), masterKey: await open(r, TOKENS.masterKey) }),
      (store) => store.close(),
    ),
  );
  provide(
    c,
    TOKENS.notes,
    perContainer(async (r) => createVendorNoteStore({ database: await open(r, TOKENS.gatewayDatabase) })),
  );
  provide(
    c,
    TOKENS.idempotency,
    resource(
      'idempotency cache',
      async (r) => {
        const cache = createIdempotencyCache({
          redisUrl: config.REDIS_URL,
          maxBytes: config.GATEWAY_IDEMPOTENCY_CACHE_MB * MiB,
          onError: (error, operation) =>
            get(r, TOKENS.logger)?.warn({ err: error, operation }, 'idempotency cache unavailable; the ledger decides'),
        });
        return tracingOn() ? traceIdempotencyCache(cache) : cache;
      },
      (cache) => cache.close(),
    ),
  );
  provide(
    c,
    TOKENS.redis,
    resource(
      'redis',
      async () => (config.REDIS_URL ? createRedisClient(config.REDIS_URL) : null),
      (redis) => redis.quit(),
    ),
  );
}
