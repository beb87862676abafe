import { sql, type Kysely, type Migration } from 'kysely';

/**
 * A delivery's replays found by an index: every delivery's page (`admin deliveries show`, the
 * console) lists the replays of the entry it shows (`replay_of = id`), and without an index that
 * read the whole journal, on the event loop on SQLite: 184 ms of its CPU per page at 1,000,000
 * entries (`bench/journal.ts`), growing with the journal. Partial (`replay_of is not null`):
 * replays are rare, so the index stays small and an ordinary entry's write never touches it.
 */
export const deliveriesReplayIndexMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createIndex('gw_deliveries_replay_idx')
      .on('gw_deliveries')
      .columns(['replay_of', 'received_at'])
      .where(sql.ref('replay_of'), 'is not', null)
      .execute();
  },
};
