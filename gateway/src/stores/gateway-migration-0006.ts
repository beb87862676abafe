import type { Kysely, Migration } from 'kysely';

/**
 * Operator console sessions, shared by every process of a scaled-out gateway (a load balancer
 * may send each page to another process). Only the SHA-256 of a session id is stored, so the
 * table never holds a usable cookie; `flash` is the one-shot message of a post → redirect → get.
 */
export const consoleSessionsMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('gw_console_sessions')
      .addColumn('id_hash', 'text', (c) => c.primaryKey())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('flash', 'text')
      .execute();
    await db.schema.createIndex('gw_console_sessions_expires_idx').on('gw_console_sessions').column('expires_at').execute();
  },
};
