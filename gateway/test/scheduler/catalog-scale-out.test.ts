import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createDatabase } from '@loyalty-gateway/storage';
import { postgresUrlWithSchema, runPostgresStatement } from '@loyalty-gateway/storage/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCatalogRunStore } from '../../src/stores/index.js';
import { spawnGateway, stopGateway, type SpawnedGateway } from '../../src/testing/spawn-gateway.js';
import { CLOVER_MERCHANT, catalogOf, cloverSeed } from '../../src/testing/catalog-world.js';
import { startCloverItemsServer, type CloverItemsServer } from '../../src/testing/clover-items-server.js';

/**
 * Architecture: every gateway process runs the catalog schedules, and the run row's unique key
 * (vendor, connection, slot) in the shared database decides which one pulls a tick. Two real
 * processes here (`npm start`, each with its own data dir) on one PostgreSQL schema, with Clover's
 * schedule set to every second through the `catalogSchedule` provider setting.
 */
const DATABASE_URL = process.env.DATABASE_URL;
let dir = '';
const schema = `catscale_${randomBytes(5).toString('hex')}`;
const schemaUrl = () => postgresUrlWithSchema(DATABASE_URL!, schema);

const sql = (statement: string) => runPostgresStatement(DATABASE_URL!, statement);

const env = (name: string) => ({
  ...process.env,
  PORT: '0',
  HOST: '127.0.0.1',
  GATEWAY_ENV: 'uat',
  GATEWAY_DATA_DIR: path.join(dir, name),
  GATEWAY_SEED_FILE: path.join(dir, 'seed.json'),
  GATEWAY_MASTER_KEY: Buffer.alloc(32, 7).toString('base64'),
  DATABASE_URL: schemaUrl(),
  REDIS_URL: '',
  LOYALTY_ENGINE_URL: '',
  GATEWAY_SCHEDULER: 'on',
  LOG_LEVEL: 'info',
});

/** The catalog lines a process logged: which slots it pulled, which it found claimed by the other. */
function catalogLog(gateway: SpawnedGateway) {
  const pulled = new Set<string>();
  const skipped = new Set<string>();
  let rest = '';
  gateway.child.stdout!.on('data', (chunk: Buffer) => {
    const lines = (rest + chunk.toString()).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.startsWith('{')) continue;
      const entry = JSON.parse(line) as { msg?: string; slot?: string; reason?: string };
      if (entry.msg === 'catalog schedule tick done' && entry.slot) pulled.add(entry.slot);
      if (entry.msg === 'catalog pull skipped: already claimed' && entry.slot) skipped.add(entry.slot);
    }
  });
  return { pulled, skipped };
}

describe.skipIf(!DATABASE_URL)('catalog pulls across two gateway processes on one PostgreSQL', () => {
  let items: CloverItemsServer;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'lg-catalog-scale-'));
    items = await startCloverItemsServer(CLOVER_MERCHANT, 5);
    const seed = cloverSeed(items.baseUrl);
    const clover = seed.vendors.find((v: { slug: string }) => v.slug === 'clover') as unknown as { settings: Record<string, unknown> };
    clover.settings.catalogSchedule = '* * * * * *';
    writeFileSync(path.join(dir, 'seed.json'), JSON.stringify(seed));
    await sql(`create schema "${schema}"`);
  });
  afterAll(async () => {
    await items?.close();
    rmSync(dir, { recursive: true, force: true });
    await sql(`drop schema if exists "${schema}" cascade`);
  });

  it('both processes tick on the schedule; each slot is pulled by exactly one of them, the other finds it claimed', async () => {
    const a = await spawnGateway(env('a'));
    const b = await spawnGateway(env('b'));
    const logs = [catalogLog(a), catalogLog(b)];
    const contended = () => logs.some((mine, i) => [...mine.pulled].some((slot) => logs[1 - i]!.skipped.has(slot)));
    try {
      const deadline = Date.now() + 20_000;
      while (Date.now() < deadline && (logs[0]!.pulled.size + logs[1]!.pulled.size < 4 || !contended()))
        await new Promise((r) => setTimeout(r, 200));
    } finally {
      await Promise.all([stopGateway(a), stopGateway(b)]);
    }
    const database = createDatabase<any>({ postgresUrl: DATABASE_URL, postgresSchema: schema });
    try {
      const runs = await (await createCatalogRunStore({ database })).list({ vendor: 'clover' });
      const scheduled = runs.filter((r) => r.trigger === 'schedule');
      expect(scheduled.filter((r) => r.status === 'succeeded').length).toBeGreaterThanOrEqual(4);
      for (const run of scheduled.filter((r) => r.status === 'succeeded')) expect(run).toMatchObject({ pages: 1, items: 5 });
      // One run per slot, and every pull of Clover's API belongs to one: nobody pulled a tick it did not claim
      // (a run claimed as the processes stopped may have ended before asking).
      expect(new Set(scheduled.map((r) => r.slot)).size).toBe(scheduled.length);
      expect(items.asked.length).toBeLessThanOrEqual(scheduled.length);
      expect(items.asked.length).toBeGreaterThanOrEqual(scheduled.filter((r) => r.status === 'succeeded').length);
      // The processes really competed: a slot one of them pulled, the other ticked too and found claimed.
      expect(contended()).toBe(true);
      // No slot pulled by both.
      expect([...logs[0]!.pulled].filter((slot) => logs[1]!.pulled.has(slot))).toEqual([]);
      expect(await catalogOf(database)).toHaveLength(5);
    } finally {
      await database.close();
    }
  }, 90_000);
});
