import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { engineMigrations } from '../db/migrations/index.js';
import { testDialects, openTestDatabase } from '../db/testing.js';
import { createEmbeddedEngine } from './create-embedded-engine.js';

describe.each(testDialects())('engine lifecycle on $name', ({ name }) => {
  it('migrates on creation (twice is fine), pings, and close() leaves the caller\'s database open', async () => {
    const database = await openTestDatabase(name);
    try {
      const engine = await createEmbeddedEngine({ database });
      await createEmbeddedEngine({ database });
      await expect(engine.ping()).resolves.toBeUndefined();
      const migrations = await sql<{ name: string }>`select name from engine_migrations order by name`.execute(database.db);
      expect(migrations.rows.map((r) => r.name)).toEqual(Object.keys(engineMigrations));
      await engine.close();
      await expect(engine.ping()).rejects.toThrow(/closed/);
      await expect(sql`select 1`.execute(database.db)).resolves.toBeDefined();
    } finally {
      await database.close();
    }
  });
});
