import { join } from 'node:path';
import { createDatabase, type SqlDatabase } from '@loyalty-gateway/engine';
import type { GatewayConfig } from '../config.js';

export interface GatewayDatabases {
  gateway: SqlDatabase<any>;
  engine: SqlDatabase<any>;
  close(): Promise<void>;
}

/**
 * PostgreSQL when DATABASE_URL is set: one database (and pool) for the gateway store and the
 * engine, each with its own migration table. Otherwise two SQLite files in the data dir.
 */
export async function openDatabases(config: GatewayConfig): Promise<GatewayDatabases> {
  if (config.DATABASE_URL) {
    const shared = await createDatabase<any>({ postgresUrl: config.DATABASE_URL });
    return { gateway: shared, engine: shared, close: () => shared.close() };
  }
  const gateway = await createDatabase<any>({ sqliteFile: join(config.GATEWAY_DATA_DIR, 'gateway.sqlite') });
  try {
    const engine = await createDatabase<any>({ sqliteFile: join(config.GATEWAY_DATA_DIR, 'engine.sqlite') });
    return {
      gateway,
      engine,
      close: async () => {
        await Promise.allSettled([gateway.close(), engine.close()]);
      },
    };
  } catch (error) {
    await gateway.close();
    throw error;
  }
}
