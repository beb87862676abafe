import { join } from 'node:path';
import { createDatabase, migrate, type DatabaseOptions, type SqlDatabase } from '@loyalty-gateway/storage';
import { sql } from 'kysely';
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
  if (config.DATABASE_URL && warn) await warnWithoutAutovacuum(gateway, warn);
  const engine: DatabaseOptions = config.DATABASE_URL
    ? { postgresUrl: config.DATABASE_URL }
    : { sqliteFile: join(config.GATEWAY_DATA_DIR, 'engine.sqlite'), sqliteCacheMb: config.GATEWAY_SQLITE_CACHE_MB };
  return { gateway, engine, close: () => gateway.close() };
}

/** The warning logged at start when the PostgreSQL server's autovacuum is off (docs/operators.md, PostgreSQL). */
export const AUTOVACUUM_OFF =
  "PostgreSQL's autovacuum is off: nothing analyzes or vacuums the ledger's tables as they grow, so a statement planned while a table was small (redemptions, refunds) goes on reading all of it, and dead rows pile up. Turn it on (autovacuum = on, the default), or run VACUUM ANALYZE on a schedule.";

/**
 * Warn once at start when the server's autovacuum is off (a server setting the gateway cannot
 * change). The gateway prepares its hot statements once per connection: their plans follow the
 * tables' statistics only when something refreshes them. Measured: a ledger whose `redemptions`
 * table was analyzed nearly empty and then grew served redemptions 3× slower, each scanning it.
 */
export async function warnWithoutAutovacuum(database: SqlDatabase<any>, warn: (message: string) => void): Promise<void> {
  // Advice only: a server that will not say (a proxy in front of it, say) does not stop the start.
  const answer = await sql<{
    on: boolean;
  }>`select current_setting('autovacuum')::boolean and current_setting('track_counts')::boolean as on`
    .execute(database.db)
    .catch(() => null);
  if (answer?.rows[0]?.on === false) warn(AUTOVACUUM_OFF);
}
