import { sql } from 'kysely';
import type { SqlDatabase } from './database.js';

/**
 * The warning logged at start (by the gateway, and by the engine service on its own) when the
 * PostgreSQL server's autovacuum is off. The operator's guide says what to do.
 */
export const AUTOVACUUM_OFF =
  "PostgreSQL's autovacuum is off: nothing analyzes or vacuums the ledger's tables as they grow, so a statement planned while a table was small (redemptions, refunds) goes on reading all of it, and dead rows pile up. Turn it on (autovacuum = on, the default), or run VACUUM ANALYZE on a schedule.";

/** One row, `on`: whether the server's autovacuum runs (it needs `track_counts` too). */
export const AUTOVACUUM_RUNS = "select current_setting('autovacuum')::boolean and current_setting('track_counts')::boolean as on";

/**
 * Warn once at start when the server's autovacuum is off (a server setting no client can change).
 * The ledger's hot statements are prepared once per connection: their plans follow the tables'
 * statistics only when something refreshes them. Measured: a ledger whose `redemptions` table was
 * analyzed nearly empty and then grew served redemptions 3× slower, each scanning it. SQLite: nothing
 * to check.
 */
export async function warnWithoutAutovacuum(database: SqlDatabase<any>, warn: (message: string) => void): Promise<void> {
  if (database.dialect !== 'postgres') return;
  // Advice only: a server that will not say (a proxy in front of it, say) does not stop the start.
  const answer = await sql
    .raw<{ on: boolean }>(AUTOVACUUM_RUNS)
    .execute(database.db)
    .catch(() => null);
  if (answer?.rows[0]?.on === false) warn(AUTOVACUUM_OFF);
}
