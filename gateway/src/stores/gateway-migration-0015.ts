import type { Kysely, Migration } from 'kysely';

/**
 * `trace_id`: the OpenTelemetry trace of the request an entry records (32 hex characters), when
 * tracing was on and the request sampled; null otherwise and on the rows journalled before. The
 * journal entry names its trace, as the trace's root span names the request id. A new nullable
 * column only: adding it rewrites no row on either dialect (as 0013 and 0014). No index: an
 * operator goes from a trace to its entry by the request id, which is indexed.
 */
export const deliveriesTraceIdMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('gw_deliveries').addColumn('trace_id', 'text').execute();
  },
};
