import type { Kysely, Migration } from 'kysely';

/**
 * What an entry says of its outcome (issue 36): "why no points?" and "why did it fail?" answered
 * from the journal instead of the log. New nullable columns only, null on the rows journalled
 * before (adding one rewrites no row on either dialect, as in 0013):
 *
 * - `points_earned`, `points_reversed`: what the request moved in the wallet (a featured batch:
 *   its events together); null when it moved nothing of that kind or was journalled before.
 * - `stamps`: the stamp cards it advanced, as a short summary (`Coffee card 4/10`).
 * - `nothing_earned`: why a processed sale earned nothing, one of a fixed set (walk_in,
 *   unknown_customer, below_threshold, other_currency, refunded_first); the list's filter.
 * - `failure`: the cause of a 5xx as JSON `{call, what, ms}`: which call (the vendor API's host
 *   and path template, or the engine operation), what happened, how long it took.
 *
 * No index: the filter on `nothing_earned` is searched in windows like status and code.
 */
export const deliveriesOutcomesMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('gw_deliveries').addColumn('points_earned', 'integer').execute();
    await db.schema.alterTable('gw_deliveries').addColumn('points_reversed', 'integer').execute();
    await db.schema.alterTable('gw_deliveries').addColumn('stamps', 'text').execute();
    await db.schema.alterTable('gw_deliveries').addColumn('nothing_earned', 'text').execute();
    await db.schema.alterTable('gw_deliveries').addColumn('failure', 'text').execute();
  },
};
