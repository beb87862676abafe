import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { engineMigrations } from '@loyalty-gateway/engine';
import { createDatabase, migrate, type DatabaseOptions } from '@loyalty-gateway/storage';
import { openTestDatabase, postgresUrlWithSchema, runPostgresStatement, testDialects } from '@loyalty-gateway/storage/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createDeliveryJournal } from '../../src/journal/index.js';
import { createReconcileRunStore } from '../../src/reconcile/reconcile-run-store.js';
import { startGateway } from '../../src/start-gateway.js';
import { createCatalogRunStore, createGatewayStore, createVendorNoteStore } from '../../src/stores/index.js';
import { gatewayMigrations } from '../../src/stores/gateway-migrations.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'lg-migrations-boot-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const base = {
  PORT: '0',
  HOST: '127.0.0.1',
  GATEWAY_ENV: 'uat',
  REDIS_URL: '',
  LOYALTY_ENGINE_URL: '',
  LOG_LEVEL: 'silent',
  GATEWAY_SCHEDULER: 'off',
};

/** A place for one gateway's data: a data dir, and on PostgreSQL a schema of its own. */
async function dataHome(dialect: 'sqlite' | 'postgres') {
  const dataDir = mkdtempSync(path.join(dir, 'data-'));
  if (dialect === 'sqlite') {
    return {
      env: { ...base, GATEWAY_DATA_DIR: dataDir, DATABASE_URL: '' },
      gateway: { sqliteFile: path.join(dataDir, 'gateway.sqlite') } as DatabaseOptions,
      engine: { sqliteFile: path.join(dataDir, 'engine.sqlite') } as DatabaseOptions,
      dispose: async () => undefined,
    };
  }
  const url = process.env.DATABASE_URL!;
  const schema = `boot_${randomBytes(5).toString('hex')}`;
  await runPostgresStatement(url, `create schema "${schema}"`);
  const options: DatabaseOptions = { postgresUrl: url, postgresSchema: schema };
  return {
    env: { ...base, GATEWAY_DATA_DIR: dataDir, DATABASE_URL: postgresUrlWithSchema(url, schema) },
    gateway: options,
    engine: options,
    dispose: () => runPostgresStatement(url, `drop schema if exists "${schema}" cascade`),
  };
}

/** Each owner's migration records (name, timestamp), as the database holds them. */
async function recordsIn(options: DatabaseOptions, table: string): Promise<Array<{ name: string; timestamp: string }>> {
  const database = createDatabase<any>(options);
  try {
    return await database.db.selectFrom(table).select(['name', 'timestamp']).orderBy('name').execute();
  } finally {
    await database.close();
  }
}

async function boot(env: Record<string, string>): Promise<void> {
  const running = await startGateway(env);
  try {
    expect((await fetch(`${running.address}/health`)).status).toBe(200);
  } finally {
    await running.close();
  }
}

describe.each(testDialects())('migrations at boot on $name', ({ name }) => {
  it('the first boot migrates both schemas; booting again runs no migration and keeps every record', async () => {
    const home = await dataHome(name);
    try {
      await boot(home.env);
      const gateway = await recordsIn(home.gateway, gatewayMigrations.table);
      const engine = await recordsIn(home.engine, engineMigrations.table);
      expect(gateway.map((r) => r.name)).toEqual(Object.keys(gatewayMigrations.migrations));
      expect(engine.map((r) => r.name)).toEqual(Object.keys(engineMigrations.migrations));

      await boot(home.env);
      expect(await recordsIn(home.gateway, gatewayMigrations.table)).toEqual(gateway);
      expect(await recordsIn(home.engine, engineMigrations.table)).toEqual(engine);
    } finally {
      await home.dispose();
    }
  });

  it('a database migrated by an earlier release boots as it is: its records stay, only the migrations it lacks run', async () => {
    const home = await dataHome(name);
    try {
      // What an earlier release left: Kysely's migration tables in the same format, all but the newest gateway migration applied.
      const names = Object.keys(gatewayMigrations.migrations);
      const earlier = {
        table: gatewayMigrations.table,
        migrations: Object.fromEntries(names.slice(0, -1).map((n) => [n, gatewayMigrations.migrations[n]!])),
      };
      const stamp = '2025-01-01T00:00:00.000Z';
      for (const [options, set] of [
        [home.gateway, earlier],
        [home.engine, engineMigrations],
      ] as const) {
        const database = createDatabase<any>(options);
        try {
          await migrate(database.db, set);
          await database.db.updateTable(set.table).set({ timestamp: stamp }).execute();
        } finally {
          await database.close();
        }
      }

      await boot(home.env);
      const gateway = await recordsIn(home.gateway, gatewayMigrations.table);
      expect(gateway.map((r) => r.name)).toEqual(names);
      expect(gateway.slice(0, -1).every((r) => r.timestamp === stamp)).toBe(true);
      expect(gateway.at(-1)!.timestamp).not.toBe(stamp);
      expect((await recordsIn(home.engine, engineMigrations.table)).every((r) => r.timestamp === stamp)).toBe(true);
    } finally {
      await home.dispose();
    }
  });
});

describe('the stores run no migration: boot does', () => {
  it('opening every gateway store on an empty database creates no table', async () => {
    const database = await openTestDatabase<any>('sqlite');
    try {
      const masterKey = randomBytes(32);
      const store = await createGatewayStore({ database, masterKey });
      await createCatalogRunStore({ database });
      await createVendorNoteStore({ database });
      await createReconcileRunStore({ database });
      const journal = await createDeliveryJournal({ database, masterKey, flushMs: 60_000 });
      const tables = await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(database.db);
      expect(tables.rows).toEqual([]);
      await journal.close();
      await store.close();
    } finally {
      await database.close();
    }
  });
});
