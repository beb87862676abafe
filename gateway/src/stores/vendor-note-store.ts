import { randomUUID } from 'node:crypto';
import { migrate, type SqlDatabase } from '@loyalty-gateway/engine';
import type { Kysely, Selectable } from 'kysely';
import { z } from 'zod';
import { GATEWAY_MIGRATION_TABLE, gatewayMigrations } from './gateway-migrations.js';
import type { VendorNote, VendorNoteStore } from './gateway-store-types.js';
import type { GwVendorNotesTable, OperatorTables } from './operator-tables.js';
import { VendorSlug, parseInput } from './store-inputs.js';

const NoteInput = z.object({
  kind: z.string().min(1).max(100),
  value: z.string().max(4096),
  note: z.string().max(1000).nullish(),
});

export interface OperatorStoreOptions {
  /** The gateway's database (opened by the caller, never closed here). */
  database: SqlDatabase<any>;
  clock?: () => Date;
}

const toNote = (row: Selectable<GwVendorNotesTable>): VendorNote => ({
  id: row.id,
  vendor: row.vendor,
  kind: row.kind,
  value: row.value,
  note: row.note,
  createdAt: new Date(Number(row.created_at)),
});

/**
 * Vendor notes: handshakes and test pings a featured door receives (Clover's verificationCode,
 * Square's test notification) kept for the operator (`GET /admin/vendors/:slug/notes`).
 * Runs the gateway migrations (idempotent), so it can be opened on its own.
 */
export async function createVendorNoteStore(options: OperatorStoreOptions): Promise<VendorNoteStore> {
  const db = options.database.db as Kysely<OperatorTables>;
  await migrate(db, gatewayMigrations, GATEWAY_MIGRATION_TABLE);
  const now = options.clock ?? (() => new Date());
  return {
    async recordVendorNote(slug, input) {
      const vendor = parseInput(VendorSlug, slug, 'vendor slug');
      const parsed = parseInput(NoteInput, input, 'vendor note');
      const row = { id: randomUUID(), vendor, kind: parsed.kind, value: parsed.value, note: parsed.note ?? null, created_at: now().getTime() };
      await db.insertInto('gw_vendor_notes').values(row).execute();
      return toNote(row);
    },
    async listVendorNotes(slug, limit = 100) {
      let query = db.selectFrom('gw_vendor_notes').selectAll().orderBy('created_at', 'desc').orderBy('id').limit(Math.min(Math.max(1, limit), 1000));
      if (slug !== undefined) query = query.where('vendor', '=', slug);
      return (await query.execute()).map(toNote);
    },
  };
}
