import { chmodSync, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { TOKENS, closeContainer, createGatewayContainer, open } from '../../src/composition/index.js';
import { loadConfig } from '../../src/config.js';

const modeOf = (file: string) => statSync(file).mode & 0o777;

describe('the data directory and its SQLite files are readable by the gateway only', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it.each([
    ['a new data directory', false],
    ['one made world-readable by an older build', true],
  ])('%s: the directory 0700; gateway.sqlite, engine.sqlite and their WAL and shared-memory files 0600', async (_name, existing) => {
    const parent = mkdtempSync(path.join(os.tmpdir(), 'lg-perm-'));
    dirs.push(parent);
    const dataDir = path.join(parent, 'data');
    if (existing) {
      const first = createGatewayContainer(loadConfig({ GATEWAY_DATA_DIR: dataDir, DATABASE_URL: '' }));
      await open(first, TOKENS.databases);
      await closeContainer(first);
      chmodSync(dataDir, 0o755);
      for (const file of ['gateway.sqlite', 'engine.sqlite'])
        if (existsSync(path.join(dataDir, file))) chmodSync(path.join(dataDir, file), 0o644);
    }
    const c = createGatewayContainer(loadConfig({ GATEWAY_DATA_DIR: dataDir, DATABASE_URL: '' }));
    try {
      const databases = await open(c, TOKENS.databases);
      await sql`create table if not exists perm_probe (n integer)`.execute(databases.gateway.db);
      await sql`insert into perm_probe values (1)`.execute(databases.gateway.db);
      expect(modeOf(dataDir)).toBe(0o700);
      for (const file of ['gateway.sqlite', 'gateway.sqlite-wal', 'gateway.sqlite-shm', 'engine.sqlite'])
        expect([file, modeOf(path.join(dataDir, file))]).toEqual([file, 0o600]);
    } finally {
      await closeContainer(c);
    }
  });
});
