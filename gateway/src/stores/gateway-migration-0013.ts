import type { Kysely, Migration } from 'kysely';

/**
 * The journal's bounds (issue 35). New columns only, each null on the rows journalled before:
 * adding a nullable column rewrites no row on either dialect (SQLite changes the schema text,
 * PostgreSQL the catalogue), so boot stays as quick at 10,000,000 entries as at none.
 *
 * - `client_address`: the client a refusal came from (`request.ip`, an IPv6 client by its /64).
 * - `refusals`, `last_request_id`: refusals with no connection are one row per client address
 *   and minute, counting them and naming the last one's request id (null: one request).
 * - `authenticated`: 1 when the request proved its connection (a signature, a featured door's
 *   scheme), 0 when not. A lookup by a caller's X-Request-ID never shows an unauthenticated entry
 *   in place of an authenticated one (null on older rows: judged from their status).
 * - `size_bytes`: what the row stores, for the journal's byte budget (older rows are estimated).
 * - `replay_forced`: 1 for a replay the operator forced past a revoked secret or an inactive
 *   connection.
 */
export const deliveriesBoundsMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('gw_deliveries').addColumn('client_address', 'text').execute();
    await db.schema.alterTable('gw_deliveries').addColumn('refusals', 'integer').execute();
    await db.schema.alterTable('gw_deliveries').addColumn('last_request_id', 'text').execute();
    await db.schema.alterTable('gw_deliveries').addColumn('authenticated', 'integer').execute();
    await db.schema.alterTable('gw_deliveries').addColumn('size_bytes', 'integer').execute();
    await db.schema.alterTable('gw_deliveries').addColumn('replay_forced', 'integer').execute();
  },
};
