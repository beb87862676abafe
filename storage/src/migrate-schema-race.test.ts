import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { migrate, type MigrationSet } from './migrate.js';
import { openTestDatabase } from './testing/test-database.js';

const url = process.env.DATABASE_URL;

const twoTables: MigrationSet = {
  table: 'race_migrations',
  migrations: {
    '0001_a': {
      up: (db) =>
        db.schema
          .createTable('a')
          .addColumn('id', 'integer', (c) => c.primaryKey())
          .execute(),
    },
    '0002_b': {
      up: (db) =>
        db.schema
          .createTable('b')
          .addColumn('id', 'integer', (c) => c.primaryKey())
          .execute(),
    },
  },
};

/**
 * Create and drop throwaway schemas until `stop()`, and with `columns` also drop columns of their
 * tables (what another schema's migrations do): what other test files do on a shared server.
 */
function churnSchemas(columns = false): { stop(): Promise<void> } {
  const client = new pg.Client({ connectionString: url });
  let running = true;
  const loop = (async () => {
    await client.connect();
    for (let i = 0; running; i += 1) {
      const name = `churn_${process.pid}_${i}`;
      await client.query(`create schema "${name}"`);
      await client.query(`create table "${name}".t (id int${columns ? ', a int, b int, c int' : ''})`);
      if (columns) for (const column of ['a', 'b', 'c']) await client.query(`alter table "${name}".t drop column ${column}`);
      await client.query(`drop schema "${name}" cascade`);
      await new Promise((resolve) => setTimeout(resolve, 20)); // busier than any test suite
    }
    await client.end();
  })();
  return {
    async stop() {
      running = false;
      await loop;
    },
  };
}

describe.skipIf(!url)('migrate on a PostgreSQL server where other schemas come and go', () => {
  it.each([
    ['drops whole schemas', false, 15],
    ['drops columns (42703)', true, 30],
  ] as const)('migrations succeed while another session %s during their introspection', async (_what, dropColumns, rounds) => {
    const churn = churnSchemas(dropColumns);
    try {
      for (let round = 0; round < rounds; round += 1) {
        const database = await openTestDatabase('postgres');
        try {
          await expect(migrate(database.db, twoTables)).resolves.toEqual(['0001_a', '0002_b']);
        } finally {
          await database.close();
        }
      }
    } finally {
      await churn.stop();
    }
  });
});
