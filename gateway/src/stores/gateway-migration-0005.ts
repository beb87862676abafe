import type { Kysely, Migration } from 'kysely';

/**
 * The delivery journal: one row per request to /webhooks/* and /v1/*, accepted or refused (who,
 * what, how it ended). `body_sealed` holds the raw request (body and headers, AES-GCM with the
 * master key) only for requests that failed on the gateway's side (5xx) and for replays.
 */
export const deliveriesMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('gw_deliveries')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('request_id', 'text', (c) => c.notNull())
      .addColumn('received_at', 'bigint', (c) => c.notNull())
      .addColumn('method', 'text', (c) => c.notNull())
      .addColumn('route', 'text', (c) => c.notNull())
      .addColumn('vendor', 'text')
      .addColumn('store_id', 'text')
      .addColumn('connection_id', 'text')
      .addColumn('event_type', 'text')
      .addColumn('event_id', 'text')
      .addColumn('transaction_id', 'text')
      .addColumn('refund_id', 'text')
      .addColumn('status', 'integer', (c) => c.notNull())
      .addColumn('outcome', 'text')
      .addColumn('warning', 'text')
      .addColumn('fields', 'text')
      .addColumn('duration_ms', 'integer', (c) => c.notNull())
      .addColumn('skew_seconds', 'integer')
      .addColumn('body_sha256', 'text')
      .addColumn('body_sealed', 'text')
      .addColumn('replay_of', 'text')
      .addColumn('replayed_by', 'text')
      .execute();
    await db.schema.createIndex('gw_deliveries_received_idx').on('gw_deliveries').columns(['received_at', 'id']).execute();
    await db.schema.createIndex('gw_deliveries_request_idx').on('gw_deliveries').column('request_id').execute();
    await db.schema.createIndex('gw_deliveries_connection_idx').on('gw_deliveries').columns(['connection_id', 'received_at']).execute();
    await db.schema.createIndex('gw_deliveries_transaction_idx').on('gw_deliveries').column('transaction_id').execute();
  },
};
