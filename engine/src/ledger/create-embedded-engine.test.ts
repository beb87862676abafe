import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { engineMigrations } from '../db/migrations/index.js';
import { testDialects, openTestDatabase } from '@loyalty-gateway/storage/testing';
import { createEmbeddedEngine } from './create-embedded-engine.js';

describe.each(testDialects())('engine lifecycle on $name', ({ name }) => {
  it("opens on a migrated database (twice is fine), pings, and close() leaves the caller's database open", async () => {
    const database = await openTestDatabase(name, engineMigrations);
    try {
      const engine = await createEmbeddedEngine({ database });
      await createEmbeddedEngine({ database });
      await expect(engine.ping()).resolves.toBeUndefined();
      const migrations = await sql<{ name: string }>`select name from engine_migrations order by name`.execute(database.db);
      expect(migrations.rows.map((r) => r.name)).toEqual(Object.keys(engineMigrations.migrations));
      await engine.close();
      await expect(engine.ping()).rejects.toThrow(/closed/);
      await expect(sql`select 1`.execute(database.db)).resolves.toBeDefined();
    } finally {
      await database.close();
    }
  });

  it('runs no migration itself: on an empty database it fails to open for want of its tables', async () => {
    const database = await openTestDatabase(name);
    try {
      await expect(createEmbeddedEngine({ database })).rejects.toThrow(/engine_settings/);
      await expect(sql`select name from engine_migrations`.execute(database.db)).rejects.toThrow(/engine_migrations/);
    } finally {
      await database.close();
    }
  });
});
