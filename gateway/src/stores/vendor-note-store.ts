import { randomUUID } from 'node:crypto';
import type { SqlDatabase } from '@loyalty-gateway/storage';
import type { Kysely, Selectable } from 'kysely';
import { z } from 'zod';
import type { VendorNote, VendorNoteStore } from './gateway-store-types.js';
import type { GwVendorNotesTable, OperatorTables } from './operator-tables.js';
import { VendorSlug, parseInput } from './store-inputs.js';

const NoteInput = z.object({
  kind: z.string().min(1).max(100),
  value: z.string().max(4096),
  note: z.string().max(1000).nullish(),
});

/** Notes kept per vendor: the newest; older ones are deleted as new ones arrive. */
export const VENDOR_NOTES_KEPT = 50;

export interface OperatorStoreOptions {
  /** The gateway's database (opened by the caller, never closed here). */
  database: SqlDatabase<any>;
  clock?: () => Date;
  /** Notes kept per vendor (default VENDOR_NOTES_KEPT). */
  keepPerVendor?: number;
}

const toNote = (row: Selectable<GwVendorNotesTable>): VendorNote => ({
  id: row.id,
  vendor: row.vendor,
  kind: row.kind,
  value: row.value,
  note: row.note,
  createdAt: new Date(Number(row.created_at)),
  count: Number(row.count ?? 1),
  firstSeenAt: new Date(Number(row.first_seen_at ?? row.created_at)),
});

/**
 * Vendor notes: handshakes and test pings a featured door receives (Clover's verificationCode,
 * Square's test notification) kept for the operator (`GET /admin/vendors/:slug/notes`). Bounded:
 * the same (kind, value) again only moves its note to the top, and each vendor keeps its newest
 * `keepPerVendor` notes.
 */
export async function createVendorNoteStore(options: OperatorStoreOptions): Promise<VendorNoteStore> {
  const db = options.database.db as Kysely<OperatorTables>;
  const now = options.clock ?? (() => new Date());
  const keep = options.keepPerVendor ?? VENDOR_NOTES_KEPT;

  /** The existing note with this (kind, value), moved to the top; null when there is none. */
  async function refresh(vendor: string, kind: string, value: string, note: string | null, at: number): Promise<VendorNote | null> {
    const row = await db
      .selectFrom('gw_vendor_notes')
      .selectAll()
      .where('vendor', '=', vendor)
      .where('kind', '=', kind)
      .where('value', '=', value)
      .executeTakeFirst();
    if (!row) return null;
    await db
      .updateTable('gw_vendor_notes')
      .set((eb) => ({ note, created_at: at, count: eb('count', '+', 1) }))
      .where('id', '=', row.id)
      .execute();
    return toNote({ ...row, note, created_at: at, count: Number(row.count) + 1 });
  }

  /** Delete all but the vendor's newest `keep` notes (the order the admin API lists them in). */
  async function prune(vendor: string): Promise<void> {
    await db
      .deleteFrom('gw_vendor_notes')
      .where('vendor', '=', vendor)
      .where(
        'id',
        'not in',
        db.selectFrom('gw_vendor_notes').select('id').where('vendor', '=', vendor).orderBy('created_at', 'desc').orderBy('id').limit(keep),
      )
      .execute();
  }

  return {
    async recordVendorNote(slug, input) {
      const vendor = parseInput(VendorSlug, slug, 'vendor slug');
      const parsed = parseInput(NoteInput, input, 'vendor note');
      const at = now().getTime();
      const refreshed = await refresh(vendor, parsed.kind, parsed.value, parsed.note ?? null, at);
      if (refreshed) return refreshed;
      const row = {
        id: randomUUID(),
        vendor,
        kind: parsed.kind,
        value: parsed.value,
        note: parsed.note ?? null,
        created_at: at,
        first_seen_at: at,
        count: 1,
      };
      await db.insertInto('gw_vendor_notes').values(row).execute();
      await prune(vendor);
      return toNote(row);
    },
    async listVendorNotes(slug, limit = 100) {
      let query = db
        .selectFrom('gw_vendor_notes')
        .selectAll()
        .orderBy('created_at', 'desc')
        .orderBy('id')
        .limit(Math.min(Math.max(1, limit), 1000));
      if (slug !== undefined) query = query.where('vendor', '=', slug);
      return (await query.execute()).map(toNote);
    },
  };
}
