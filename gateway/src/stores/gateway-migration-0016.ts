import { sql, type Kysely, type Migration } from 'kysely';

/**
 * The journal's request index leaves out the entries of generated request ids. When a caller sends
 * no usable `X-Request-ID` the gateway generates a UUIDv7 of the millisecond the request arrived,
 * and since this migration its entry is received at that millisecond: the id says when, and the
 * primary key (whose ids begin with their time, migration 0012) finds it by that millisecond's
 * range — a few rows, whatever the journal's size. Its entry in the request index was a fourth
 * B-tree written per entry for nothing: ~1.6 µs of the SQLite writer's ~8.5 per entry in a
 * micro-benchmark of its inserts; `bench/journal.ts` 7.3–7.9 → 6.5 µs with the rows' texts bound as
 * bytes too (docs/benchmarks.md, "The delivery journal").
 *
 * Such entries keep their region and get no key (`request_key` null, journal-rows.ts); the index
 * of (region, received_at, key) is rebuilt for the entries that have a key: every one journalled
 * since migration 0008 and before this one, and from now on those whose request id came from the
 * caller. Entries journalled before 0008 stay in their own partial index (no region). A lookup by
 * a request id that carries a time (journal-ids.ts `requestIdTime`) reads the three.
 */
export const deliveriesGeneratedRequestIdsMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.dropIndex('gw_deliveries_request_region_idx').execute();
    await db.schema
      .createIndex('gw_deliveries_request_key_idx')
      .on('gw_deliveries')
      .columns(['request_region', 'received_at', 'request_key'])
      .where(sql.ref('request_key'), 'is not', null)
      .execute();
  },
};
