import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { openDatabases } from './open-databases.js';

describe('openDatabases without DATABASE_URL (two SQLite files)', () => {
  it.each([
    ['2 MiB by default', {}, 2],
    ['GATEWAY_SQLITE_CACHE_MB when set', { GATEWAY_SQLITE_CACHE_MB: '3' }, 3],
  ])("gives the gateway store's connection and the engine's a page cache of %s", async (_name, env, mib) => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'lg-open-'));
    const databases = await openDatabases(loadConfig({ GATEWAY_DATA_DIR: dir, ...env }));
    try {
      const pragma = await sql<{ cache_size: number }>`pragma cache_size`.execute(databases.gateway.db);
      expect(pragma.rows[0]?.cache_size).toBe(-mib * 1024);
      // The engine's worker thread opens its file with these options.
      expect(databases.engine).toEqual({ sqliteFile: path.join(dir, 'engine.sqlite'), sqliteCacheMb: mib });
    } finally {
      await databases.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
