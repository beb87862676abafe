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
 * The WAL's length in pages at which the embedded engine's own commit checkpoints its SQLite ledger,
 * when another thread checkpoints that ledger in the background (ledgerCheckpointedInBackground).
 * Those passes copy the WAL's pages into the file every 50 ms; what is left to the engine's own
 * checkpoint is the few pages written since the last pass, then the sync of the WAL and of the
 * file, and restarting the WAL. At SQLite's 1,000 pages the engine's thread ran that checkpoint ~15
 * times a second under load, each with two `fsync`s of 0.2–9 ms that every earn behind it waited
 * for; at 8,000 it runs ~2 times a second (the WAL up to ~34 MB on disk). On a 10,000,000-sale
 * ledger, alternated with the build before: earns spread over 1,000,000 members 0.88 and 0.93 of
 * regular ones against 0.80 and 0.83, ~15 µs less CPU each; on a small ledger no change measured
 * (docs/benchmarks.md, "Cost at ledger size").
 */
export const LEDGER_WAL_AUTOCHECKPOINT_PAGES = 8000;

/**
 * Whether the embedded engine's SQLite ledger is checkpointed in the background, off the engine's
 * thread: by the journal writer's thread or, with the journal off, by a thread of their own
 * (register-journal.ts). Always, but when GATEWAY_JOURNAL_WRITER=engine hosts the writer on the
 * engine's thread (the engine's own checkpoints then do it all), on PostgreSQL, and with the engine
 * as a service.
 */
export function ledgerCheckpointedInBackground(config: GatewayConfig): boolean {
  if (config.DATABASE_URL || config.LOYALTY_ENGINE_URL) return false;
  return !(config.GATEWAY_JOURNAL_DAYS > 0 && config.GATEWAY_JOURNAL_WRITER === 'engine');
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
    : {
        sqliteFile: join(config.GATEWAY_DATA_DIR, 'engine.sqlite'),
        sqliteCacheMb: config.GATEWAY_SQLITE_CACHE_MB,
        ...(ledgerCheckpointedInBackground(config) ? { sqliteWalAutocheckpointPages: LEDGER_WAL_AUTOCHECKPOINT_PAGES } : {}),
      };
  return { gateway, engine, close: () => gateway.close() };
}
