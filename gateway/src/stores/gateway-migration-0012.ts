import { createHash } from 'node:crypto';
import { sql, type Kysely, type Migration } from 'kysely';

/** Rows rewritten per statement batch: the few entries journalled before time-ordered ids. */
const BATCH = 500;

/**
 * The journal's time index goes: since 2026-11-25 an entry's id begins with its `received_at`
 * (milliseconds in base 36, nine characters), then a per-process sequence and tag, so the primary
 * key already sorts exactly as `(received_at, id)` did, and `gw_deliveries_received_idx` was a
 * sixth B-tree every entry entered for nothing (~2 µs of the journal writer per entry,
 * docs/benchmarks.md). The list, its search windows, its cursor and the pruning by age read the
 * primary key's ranges instead (`idFloor` in journal-ids.ts).
 *
 * Entries journalled before time-ordered ids carry random UUIDs, which would sort anywhere in the
 * key: each gets an id of the same layout from its `received_at` (sequence `00000`, the tag from a
 * hash of its old id), and the replays naming it (`replay_of`) are told. Only those rows are read
 * and written; the rest of the journal is untouched.
 */
export const deliveriesIdOrderMigration: Migration = {
  async up(db: Kysely<any>) {
    const conforming = sql<boolean>`length(id) = 28 and substr(id, 10, 1) = '-' and substr(id, 16, 1) = '-'`;
    for (;;) {
      const legacy = await db
        .selectFrom('gw_deliveries')
        .select(['id', 'received_at'])
        .where(sql<boolean>`not (${conforming})`)
        .limit(BATCH)
        .execute();
      for (const row of legacy as Array<{ id: string; received_at: number | string }>) {
        const at = Math.max(0, Math.floor(Number(row.received_at)));
        const tag = createHash('sha256').update(row.id).digest('hex').slice(0, 12);
        const id = `${at.toString(36).padStart(9, '0')}-00000-${tag}`;
        await db.updateTable('gw_deliveries').set({ id }).where('id', '=', row.id).execute();
        await db.updateTable('gw_deliveries').set({ replay_of: id }).where('replay_of', '=', row.id).execute();
      }
      if (legacy.length < BATCH) break;
    }
    await db.schema.dropIndex('gw_deliveries_received_idx').execute();
  },
};
