import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { migrate } from '../database.js';
import { openTestDatabase } from '../testing.js';
import { ENGINE_MIGRATION_TABLE, engineMigrations } from './index.js';

const url = process.env.DATABASE_URL;

/** Create and drop throwaway schemas until `stop()`: what other test files do on a shared server. */
function churnSchemas(): { stop(): Promise<void> } {
  const client = new pg.Client({ connectionString: url });
  let running = true;
  const loop = (async () => {
    await client.connect();
    for (let i = 0; running; i += 1) {
      const name = `churn_${process.pid}_${i}`;
      await client.query(`create schema "${name}"`);
      await client.query(`create table "${name}".t (id int)`);
      await client.query(`drop schema "${name}" cascade`);
      await new Promise((resolve) => setTimeout(resolve, 20)); // busier than any test suite
    }
    await client.end();
  })();
  return { async stop() { running = false; await loop; } };
}

describe.skipIf(!url)('migrate on a PostgreSQL server where other schemas come and go', () => {
  it('bug: migrations failed with "schema … does not exist" when another schema was dropped during their introspection', async () => {
    const churn = churnSchemas();
    try {
      for (let round = 0; round < 15; round += 1) {
        const database = await openTestDatabase('postgres');
        try {
          await expect(migrate(database.db, engineMigrations, ENGINE_MIGRATION_TABLE)).resolves.toBeUndefined();
        } finally {
          await database.close();
        }
      }
    } finally {
      await churn.stop();
    }
  });
});
