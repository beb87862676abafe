import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { AUTOVACUUM_OFF } from '@loyalty-gateway/storage';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { canRunThrowawayPostgres, startThrowawayPostgres } from '@loyalty-gateway/storage/testing';
import { LEDGER_WAL_AUTOCHECKPOINT_PAGES, ledgerCheckpointedInBackground, openDatabases } from './open-databases.js';

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
      expect(databases.engine).toEqual({
        sqliteFile: path.join(dir, 'engine.sqlite'),
        sqliteCacheMb: mib,
        sqliteWalAutocheckpointPages: LEDGER_WAL_AUTOCHECKPOINT_PAGES,
      });
    } finally {
      await databases.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the embedded engine's ledger: its own checkpoints made rarer only where another thread checkpoints it", () => {
  it.each([
    ['the defaults: the journal writer thread checkpoints it', {}, true],
    ['the journal off: a checkpoint thread of its own does', { GATEWAY_JOURNAL_DAYS: '0' }, true],
    [
      "GATEWAY_JOURNAL_WRITER=engine: the writer on the engine's thread, the engine's own checkpoints do",
      { GATEWAY_JOURNAL_WRITER: 'engine' },
      false,
    ],
    [
      'GATEWAY_JOURNAL_WRITER=engine with the journal off: a checkpoint thread does',
      { GATEWAY_JOURNAL_WRITER: 'engine', GATEWAY_JOURNAL_DAYS: '0' },
      true,
    ],
    ['PostgreSQL', { DATABASE_URL: 'postgres://127.0.0.1:1/x' }, false],
    ['the engine as a service', { LOYALTY_ENGINE_URL: 'http://127.0.0.1:1' }, false],
  ])('%s', async (_name, env, background) => {
    const config = loadConfig({ GATEWAY_DATA_DIR: '/nowhere', ...env });
    expect(ledgerCheckpointedInBackground(config)).toBe(background);
    if (config.DATABASE_URL) return; // opening would reach for the server
    const dir = mkdtempSync(path.join(os.tmpdir(), 'lg-open-'));
    const databases = await openDatabases(loadConfig({ ...env, GATEWAY_DATA_DIR: dir }));
    try {
      expect(databases.engine.sqliteWalAutocheckpointPages).toBe(background ? LEDGER_WAL_AUTOCHECKPOINT_PAGES : undefined);
    } finally {
      await databases.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!canRunThrowawayPostgres())("openDatabases on PostgreSQL: the server's autovacuum", () => {
  it.each([
    ['off', { autovacuum: 'off' }, [AUTOVACUUM_OFF]],
    ['on (the default)', {}, []],
  ])(
    '%s: warned at start through the warn it is given, or not at all',
    async (_name, settings, warnings) => {
      const server = await startThrowawayPostgres(settings);
      const dir = mkdtempSync(path.join(os.tmpdir(), 'lg-open-'));
      try {
        const warned: string[] = [];
        const databases = await openDatabases(loadConfig({ GATEWAY_DATA_DIR: dir, DATABASE_URL: server.url }), undefined, (message) =>
          warned.push(message),
        );
        await databases.close();
        expect(warned).toEqual(warnings);
      } finally {
        server.destroy();
        rmSync(dir, { recursive: true, force: true });
      }
    },
    30_000,
  );
});
