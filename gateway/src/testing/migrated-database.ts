import { engineMigrations } from '@loyalty-gateway/engine';
import { migrate, type MigrationSet, type SqlDatabase } from '@loyalty-gateway/storage';
import { openTestDatabase } from '@loyalty-gateway/storage/testing';
import { gatewayMigrations } from '../stores/gateway-migrations.js';

/** The schemas of a database shared by the embedded engine and the gateway, in the order boot migrates them. */
export const GATEWAY_AND_ENGINE: readonly MigrationSet[] = [engineMigrations, gatewayMigrations];

/** A fresh test database (see storage's openTestDatabase) with the engine's and the gateway's schemas. */
export const openMigratedDatabase = (dialect: 'sqlite' | 'postgres'): Promise<SqlDatabase<any>> =>
  openTestDatabase<any>(dialect, ...GATEWAY_AND_ENGINE);

/** What a gateway process's boot runs on a database it shares with the embedded engine (another "process" of a test). */
export async function migrateGatewayAndEngine(database: SqlDatabase<any>): Promise<void> {
  for (const set of GATEWAY_AND_ENGINE) await migrate(database.db, set);
}
