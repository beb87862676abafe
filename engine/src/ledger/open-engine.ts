import { createDatabase, ensureSchema, migrate, type DatabaseOptions } from '@loyalty-gateway/storage';
import { engineMigrations } from '../db/migrations/index.js';
import { createEmbeddedEngine, type EmbeddedEngine, type EmbeddedEngineOptions } from './create-embedded-engine.js';

export interface OpenEngineOptions extends Omit<EmbeddedEngineOptions, 'database'> {
  /** Where the ledger is: opened, its schema made (PostgreSQL) and migrated here, closed with the engine. */
  database: DatabaseOptions;
}

/**
 * The embedded engine on a database of its own: the engine's boot wherever it runs (the gateway's
 * engine thread on SQLite, the gateway's event loop on PostgreSQL). Opens and migrates the
 * database, opens the engine; `close()` lets the engine finish, then closes the database.
 */
export async function openEngine(options: OpenEngineOptions): Promise<EmbeddedEngine> {
  const { database: where, ...engineOptions } = options;
  await ensureSchema(where);
  const database = createDatabase<unknown>(where);
  try {
    await migrate(database.db, engineMigrations);
    const engine = await createEmbeddedEngine({ ...engineOptions, database });
    return {
      ...engine,
      async close() {
        await engine.close();
        await database.close();
      },
    };
  } catch (error) {
    await database.close();
    throw error;
  }
}
