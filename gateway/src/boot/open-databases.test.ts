import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { openDatabases } from './open-databases.js';

describe('openDatabases without DATABASE_URL (two SQLite files)', () => {
  it('gives each connection 2 MiB of page cache by default', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'lg-open-'));
    const databases = await openDatabases(loadConfig({ GATEWAY_DATA_DIR: dir }));
    try {
      const pragma = await sql<{ cache_size: number }>`pragma cache_size`.execute(databases.gateway.db);
      expect(pragma.rows[0]?.cache_size).toBe(-2 * 1024);
      expect(databases.engine).toEqual({ sqliteFile: path.join(dir, 'engine.sqlite'), sqliteCacheMb: 2 });
    } finally {
      await databases.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("gives the gateway store's connection and the engine's the page cache of GATEWAY_SQLITE_CACHE_MB", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'lg-open-'));
    const databases = await openDatabases(loadConfig({ GATEWAY_DATA_DIR: dir, GATEWAY_SQLITE_CACHE_MB: '3' }));
    try {
      const pragma = await sql<{ cache_size: number }>`pragma cache_size`.execute(databases.gateway.db);
      expect(pragma.rows[0]?.cache_size).toBe(-3 * 1024);
      // The engine's worker thread opens its file with these options.
      expect(databases.engine).toEqual({ sqliteFile: path.join(dir, 'engine.sqlite'), sqliteCacheMb: 3 });
    } finally {
      await databases.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
