/**
 * Database plumbing shared by the engine and the gateway: either dialect opened the same way,
 * its errors told apart, hot queries compiled once, and each schema owner's migrations run by
 * Kysely's Migrator. The schemas themselves (tables, migrations) stay with their owners.
 */
export {
  createDatabase,
  ensureSchema,
  SQLITE_DEFAULT_CACHE_MB,
  sqliteCacheSizePragma,
  type DatabaseOptions,
  type SqlDatabase,
  type SqlDialect,
} from './database.js';
export { migrate, type MigrationSet } from './migrate.js';
export { AUTOVACUUM_OFF, AUTOVACUUM_RUNS, warnWithoutAutovacuum } from './autovacuum.js';
export { isConnectionLoss } from './connection-loss.js';
export { isUniqueViolation } from './unique-violation.js';
export { preparedQuery, rawStatement } from './prepared-query.js';
export { runQuery, transaction } from './held-connection.js';
