import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHttpClient, type AnyAdapter, type HttpClient } from '@loyalty-gateway/core';
import { createEmbeddedEngine, type EmbeddedEngine } from '@loyalty-gateway/engine';
import { createDatabase, ensureSchema, type SqlDatabase } from '@loyalty-gateway/storage';
import { runPostgresStatement } from '@loyalty-gateway/storage/testing';
import { pino } from 'pino';
import { adapters } from '../adapters.js';
import { parseSeed } from '../boot/seed-schema.js';
import { applySeed } from '../boot/seed.js';
import { createCatalogRunStore, createGatewayStore, type CatalogRunStore, type GatewayStore } from '../stores/index.js';
import { buildSeed } from './seed-builder.js';
import { createCatalogRunner, type CatalogRunner } from '../scheduler/catalog-runner.js';
import { migrateGatewayAndEngine } from './migrated-database.js';

export const CLOVER_MERCHANT = 'XYZVJT2ZRRRSC';
export const ACCESS_TOKEN = 'clover-access-token-for-tests';

/** One gateway process's view: its own store, engine, run store and runner on the shared database. */
export interface CatalogProcess {
  database: SqlDatabase<any>;
  store: GatewayStore;
  engine: EmbeddedEngine;
  runs: CatalogRunStore;
  runner: CatalogRunner;
}

/**
 * Databases several "processes" open on the same data: a temporary SQLite file, or one
 * PostgreSQL schema. `open()` gives a new handle each time (its own connection pool).
 */
export async function sharedDatabase(dialect: 'sqlite' | 'postgres') {
  const handles: SqlDatabase<any>[] = [];
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'lg-catalog-'));
    const file = path.join(dir, 'gateway.db');
    return {
      open: () => handles[handles.push(createDatabase<any>({ sqliteFile: file })) - 1]!,
      async close() {
        for (const h of handles) await h.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const url = process.env.DATABASE_URL!;
  const schema = `cat_${randomBytes(5).toString('hex')}`;
  await ensureSchema({ postgresUrl: url, postgresSchema: schema });
  return {
    open: () => handles[handles.push(createDatabase<any>({ postgresUrl: url, postgresSchema: schema, poolSize: 5 })) - 1]!,
    async close() {
      for (const h of handles) await h.close();
      await runPostgresStatement(url, `drop schema if exists "${schema}" cascade`);
    },
  };
}

/** The test seed plus Clover, featured, pointing at the recorded server, with one connection. */
export function cloverSeed(apiBaseUrl: string) {
  return buildSeed({
    vendors: [{ slug: 'clover', name: 'Clover', tier: 'featured', settings: { authCode: 'clover-auth-code', apiBaseUrl } }],
    connections: [{ vendor: 'clover', storeId: CLOVER_MERCHANT, outletId: 'o-downtown', credentials: { accessToken: ACCESS_TOKEN } }],
  });
}

export async function seed(process: CatalogProcess, apiBaseUrl: string): Promise<void> {
  const parsed = parseSeed(cloverSeed(apiBaseUrl));
  if (!('seed' in parsed)) throw new Error(`seed invalid: ${JSON.stringify(parsed.issues)}`);
  await applySeed(parsed.seed, { store: process.store, engine: process.engine });
}

export const quietLogger = () => pino({ level: 'silent' });

export async function openProcess(
  database: SqlDatabase<any>,
  masterKey: Buffer,
  options: { http?: HttpClient; policy?: Parameters<typeof createCatalogRunner>[0]['policy']; adapters?: readonly AnyAdapter[] } = {},
): Promise<CatalogProcess> {
  await migrateGatewayAndEngine(database); // this process's boot
  const store = await createGatewayStore({ database, masterKey, cacheTtlMs: 0 });
  const engine = await createEmbeddedEngine({ database });
  const runs = await createCatalogRunStore({ database });
  const runner = createCatalogRunner({
    store,
    runs,
    engine,
    adapters: options.adapters ?? adapters,
    logger: quietLogger(),
    http: options.http ?? createHttpClient({ timeoutMs: 2_000, baseDelayMs: 10 }),
    ...(options.policy ? { policy: options.policy } : {}),
  });
  return { database, store, engine, runs, runner };
}

/** The engine's catalog of the Clover connection's outlet, as stored. */
export async function catalogOf(database: SqlDatabase<any>) {
  return database.db
    .selectFrom('catalog_items')
    .select(['external_id', 'name', 'sku', 'price_minor', 'is_active'])
    .where('merchant_id', '=', 'm-bean')
    .where('outlet_id', '=', 'o-downtown')
    .orderBy('external_id')
    .execute();
}
