import { join } from 'node:path';
import { createDatabase, type DatabaseOptions, type SqlDatabase } from '@loyalty-gateway/engine';
import type { GatewayConfig } from '../config.js';

export interface GatewayDatabases {
  gateway: SqlDatabase<any>;
  /** Where the embedded engine keeps its data; its worker thread opens it (see start-gateway). */
  engine: DatabaseOptions;
  close(): Promise<void>;
}

/**
 * PostgreSQL when DATABASE_URL is set: one database for the gateway store and the engine, each
 * with its own migration table. Otherwise two SQLite files in the data dir. The gateway store is
 * opened here; the engine's database is opened by the engine's own thread.
 */
export async function openDatabases(config: GatewayConfig, onPoolError?: (error: Error) => void): Promise<GatewayDatabases> {
  const gateway = config.DATABASE_URL
    ? createDatabase<any>({ postgresUrl: config.DATABASE_URL, onPoolError })
    : createDatabase<any>({ sqliteFile: join(config.GATEWAY_DATA_DIR, 'gateway.sqlite') });
  const engine: DatabaseOptions = config.DATABASE_URL
    ? { postgresUrl: config.DATABASE_URL }
    : { sqliteFile: join(config.GATEWAY_DATA_DIR, 'engine.sqlite') };
  return { gateway, engine, close: () => gateway.close() };
}
