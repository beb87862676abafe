import { Migrator, sql, type Kysely, type Migration } from 'kysely';

/**
 * One schema owner's migrations (the engine's, the gateway's): numbered migrations held in code,
 * and the table that records which of them ran. Each owner keeps its own table, so owners sharing
 * one database stay independent.
 */
export interface MigrationSet {
  /** Kysely's migration table (name, timestamp); its lock table is `<table>_lock`. */
  table: string;
  /** Applied in name order ('0001_init', '0002_...'), on SQLite and PostgreSQL alike. Never edit a released one. */
  migrations: Record<string, Migration>;
}

/**
 * Bring a database up to date with one owner's migrations, through Kysely's own `Migrator` (a
 * provider holding the migrations in code). Returns the names applied now: none when the database
 * was already up to date. Boot runs this once per owner; stores and engines assume it ran.
 */
export async function migrate(db: Kysely<any>, set: MigrationSet): Promise<string[]> {
  const { table, migrations } = set;
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    migrationTableName: table,
    migrationLockTableName: `${table}_lock`,
    // Kysely looks for its tables in every schema unless told which one: with two schemas in one
    // PostgreSQL database (environments, tests) it would find the other's and skip creating ours.
    ...(await postgresSchemaOf(db)),
  });
  for (let attempt = 1; ; attempt += 1) {
    const { error, results } = await migrator.migrateToLatest();
    if (!error) return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
    if (attempt < MIGRATE_ATTEMPTS && results === undefined && isDroppedMeanwhile(error)) {
      await new Promise((resolve) => setTimeout(resolve, 10 * attempt));
      continue;
    }
    const failed = results?.find((r) => r.status === 'Error');
    throw new Error(`migration ${failed?.migrationName ?? '?'} (${table}) failed: ${String(error)}`, { cause: error });
  }
}

const MIGRATE_ATTEMPTS = 10;

/**
 * Kysely's migrator looks for its tables with a catalog query over every schema of the database
 * that calls has_schema_privilege(schema) and pg_get_serial_sequence(schema.table, column) by
 * name: a schema, table or column dropped by another session while that query runs (another
 * schema's tests or migrations on a shared server) fails it with 3F000 (invalid_schema_name),
 * 42P01 (undefined_table) or 42703 (undefined_column). That happens before any migration runs (no
 * results), so retrying is safe; a migration that itself fails is never retried.
 */
const isDroppedMeanwhile = (error: unknown): boolean =>
  ['3F000', '42P01', '42703'].includes(String((error as { code?: unknown } | null)?.code));

/** `{ migrationTableSchema }` for the connection's current PostgreSQL schema; nothing on SQLite. */
async function postgresSchemaOf(db: Kysely<any>): Promise<{ migrationTableSchema?: string }> {
  try {
    const { rows } = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(db);
    const schema = rows[0]?.schema;
    return schema ? { migrationTableSchema: schema } : {};
  } catch {
    return {}; // SQLite has no schemas
  }
}
