import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createDatabase, ensureSchema, type SqlDatabase } from './database.js';

/**
 * The dialects a contract suite runs on: SQLite always, PostgreSQL whenever DATABASE_URL is set.
 * Use with `describe.each(testDialects())`.
 */
export function testDialects(): Array<{ name: 'sqlite' | 'postgres' }> {
  return process.env.DATABASE_URL ? [{ name: 'sqlite' }, { name: 'postgres' }] : [{ name: 'sqlite' }];
}

/**
 * A fresh, empty database for one test: SQLite in memory, or a new PostgreSQL schema that is
 * dropped again on close.
 */
export async function openTestDatabase<DB>(dialect: 'sqlite' | 'postgres'): Promise<SqlDatabase<DB>> {
  if (dialect === 'sqlite') return createDatabase<DB>({ sqliteFile: ':memory:' });
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is not set');
  const schema = `t_${randomBytes(6).toString('hex')}`;
  await ensureSchema({ postgresUrl: url, postgresSchema: schema });
  const opened = createDatabase<DB>({ postgresUrl: url, postgresSchema: schema, poolSize: 20 });
  return {
    ...opened,
    async close() {
      await opened.close();
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`drop schema if exists "${schema}" cascade`);
      } finally {
        await client.end();
      }
    },
  };
}
