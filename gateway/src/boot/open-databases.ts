import { join } from 'node:path';
import { createDatabase, migrate, warnWithoutAutovacuum, type DatabaseOptions, type SqlDatabase } from '@loyalty-gateway/storage';
import type { GatewayConfig } from '../config.js';
import { gatewayMigrations } from '../stores/gateway-migrations.js';

export interface GatewayDatabases {
  gateway: SqlDatabase<any>;
  /** Where the embedded engine keeps its data; its worker thread opens and migrates it (see start-gateway). */
  engine: DatabaseOptions;
  close(): Promise<void>;
}

/**
 * PostgreSQL when DATABASE_URL is set: one database for the gateway store and the engine, each
 * with its own migration table. Otherwise two SQLite files in the data dir. The gateway store is
 * opened and migrated here, once per boot (the stores assume it); the engine's database is opened
 * and migrated by the engine's own thread.
 */
export async function openDatabases(
  config: GatewayConfig,
  onPoolError?: (error: Error) => void,
  warn?: (message: string) => void,
): Promise<GatewayDatabases> {
  const gateway = config.DATABASE_URL
    ? createDatabase<any>({ postgresUrl: config.DATABASE_URL, onPoolError })
    : createDatabase<any>({ sqliteFile: join(config.GATEWAY_DATA_DIR, 'gateway.sqlite'), sqliteCacheMb: config.GATEWAY_SQLITE_CACHE_MB });
  try {
    await migrate(gateway.db, gatewayMigrations);
  } catch (error) {
    await gateway.close().catch(() => undefined);
    throw error;
  }
  if (warn) await warnWithoutAutovacuum(gateway, warn);
  const engine: DatabaseOptions = config.DATABASE_URL
    ? { postgresUrl: config.DATABASE_URL }
    : { sqliteFile: join(config.GATEWAY_DATA_DIR, 'engine.sqlite'), sqliteCacheMb: config.GATEWAY_SQLITE_CACHE_MB };
  return { gateway, engine, close: () => gateway.close() };
}
