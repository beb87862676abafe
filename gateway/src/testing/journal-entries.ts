import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createDatabase, migrate, type MigrationSet, type SqlDatabase } from '@loyalty-gateway/storage';
import { sql, type Kysely } from 'kysely';
import type { DeliveryInput } from '../journal/delivery-journal.js';
import { gatewayMigrations } from '../stores/gateway-migrations.js';

/** A journal entry of the tests: request `req-<n>`, a generic POST of acme-pos's store s-1 on c-1, processed, unless `overrides` say otherwise. */
export const journalEntry = (n: number, at: Date, overrides: Partial<DeliveryInput> = {}): DeliveryInput => ({
  requestId: `req-${n}`,
  receivedAt: at,
  method: 'POST',
  route: '/webhooks/generic',
  vendor: 'acme-pos',
  storeId: 's-1',
  connectionId: 'c-1',
  status: 200,
  outcome: 'processed',
  durationMs: 3,
  ...overrides,
});

/** How many rows the journal's table holds. */
export const journalRowCount = async (db: Kysely<any>): Promise<number> =>
  Number((await sql<{ n: number | string }>`select count(*) as n from gw_deliveries`.execute(db)).rows[0]!.n);

/**
 * The gateway's schema as it was before migration `before`, these journal entries written then
 * (as that schema's rows; a generic POST answered 200 unless they say otherwise), then migrated to
 * the end.
 */
export async function migrateWithEarlierEntries(db: Kysely<any>, before: string, entries: Array<Record<string, unknown>>): Promise<void> {
  const earlier: MigrationSet = {
    ...gatewayMigrations,
    migrations: Object.fromEntries(Object.entries(gatewayMigrations.migrations).filter(([id]) => id < before)),
  };
  await migrate(db, earlier);
  for (const row of entries) {
    await db
      .insertInto('gw_deliveries')
      .values({ method: 'POST', route: '/webhooks/generic', status: 200, duration_ms: 1, ...row })
      .execute();
  }
  await migrate(db, gatewayMigrations);
}

/** The gateway's database on a SQLite file in a directory of its own, migrated (a journal on it gets a writer thread); `remove` deletes the directory. */
export async function openJournalFile(): Promise<{ database: SqlDatabase<any>; file: string; remove: () => void }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lg-journal-'));
  const file = path.join(dir, 'gateway.sqlite');
  const database = createDatabase<any>({ sqliteFile: file });
  await migrate(database.db, gatewayMigrations);
  return { database, file, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
