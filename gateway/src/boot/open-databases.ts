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
 * file, and restarting the WAL. Every earn behind it waits for those two `fsync`s, which queue
 * behind the passes' own (~20 a second under load): 1–37 ms each on the benchmarks' VMs. At
 * SQLite's 1,000 pages the engine's thread ran that checkpoint ~15 times a second; at 8,000 about
 * once every 1.5 s (traced over 45 s of a 10,000,000-sale ledger's bench: 33 syncs of the file,
 * 403 ms of the thread's time in `fsync` with the WAL's restarts); at 32,000 about once every 9 s
 * (5 syncs of the file, 74 ms). Alternated on that ledger, earns spread over 1,000,000 members:
 * p99 0.98–1.19× regular ones' in ten runs against 0.98–1.73× (1.2× or less in three of twelve)
 * at 8,000, the rate 0.80–1.08 of regular (median 0.91) against 0.83–0.99 (0.885); on a small
 * ledger no change measured (docs/benchmarks.md, "Cost at ledger size"). The price is disk: SQLite leaves the WAL file at its longest, up to ~128 MB
 * (32,000 pages of 4 KiB and their frame headers); the pages themselves are copied into the
 * database file every 50 ms whatever this length.
 */
export const LEDGER_WAL_AUTOCHECKPOINT_PAGES = 32_000;

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
