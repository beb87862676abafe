import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { postgresUrlWithSchema, runPostgresStatement } from '@loyalty-gateway/storage/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { headersFor } from '../../src/testing/gateway-fixture.js';
import { spawnGateway, stopGateway, type SpawnedGateway } from '../../src/testing/spawn-gateway.js';
import { STORE, VENDOR, sale, testSeedDocument } from '../../src/testing/test-seed.js';
import { memberBalance } from '../../src/testing/member-balance.js';

/**
 * Architecture: gateway processes are stateless; N of them behind a load balancer against one
 * PostgreSQL and one Redis keep exactly-once earning and per-connection rate limits. Two real
 * processes here, each with its own data dir, sharing one PostgreSQL schema and one Redis.
 */
const DATABASE_URL = process.env.DATABASE_URL;
const REDIS_URL = process.env.REDIS_URL;
const dir = mkdtempSync(path.join(os.tmpdir(), 'lg-scale-'));
const schemas: string[] = [];
let schema = '';
const schemaUrl = () => postgresUrlWithSchema(DATABASE_URL!, schema);

/** Each test gets its own PostgreSQL schema: fresh connection ids, so fresh rate-limit counters. */
async function freshSchema() {
  schema = `scale_${randomBytes(5).toString('hex')}`;
  schemas.push(schema);
  await withSchema(`create schema "${schema}"`);
}

const env = (name: string, rateLimit: number) => ({
  ...process.env,
  PORT: '0',
  HOST: '127.0.0.1',
  GATEWAY_ENV: 'uat',
  GATEWAY_DATA_DIR: path.join(dir, name),
  GATEWAY_SEED_FILE: path.join(dir, 'seed.json'),
  GATEWAY_MASTER_KEY: Buffer.alloc(32, 4).toString('base64'),
  DATABASE_URL: schemaUrl(),
  REDIS_URL,
  LOYALTY_ENGINE_URL: '',
  GATEWAY_RATE_LIMIT: String(rateLimit),
  GATEWAY_SCHEDULER: 'off',
  LOG_LEVEL: 'info',
});

async function post(gateway: SpawnedGateway, body: string) {
  const response = await fetch(`${gateway.url}/webhooks/generic`, { method: 'POST', headers: headersFor(body), body });
  return { status: response.status, body: (await response.json()) as { status?: string; code?: string } };
}

const balance = () => memberBalance({ postgresUrl: DATABASE_URL, postgresSchema: schema }, { vendor: VENDOR, storeId: STORE });

const withSchema = (statement: string) => runPostgresStatement(DATABASE_URL!, statement);

describe.skipIf(!DATABASE_URL || !REDIS_URL)('two gateway processes on one PostgreSQL and one Redis', () => {
  beforeAll(async () => {
    writeFileSync(path.join(dir, 'seed.json'), JSON.stringify(testSeedDocument()));
  });
  beforeEach(freshSchema);
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    for (const name of schemas) await withSchema(`drop schema if exists "${name}" cascade`);
  });

  it('the same sale sent 10 times to each process earns exactly once', async () => {
    const a = await spawnGateway(env('a', 1_000_000));
    const b = await spawnGateway(env('b', 1_000_000));
    try {
      const body = JSON.stringify(sale({ total: 25 }));
      const results = await Promise.all(Array.from({ length: 20 }, (_, i) => post(i % 2 === 0 ? a : b, body)));
      expect(results.every((r) => r.status === 200)).toBe(true);
      expect(results.filter((r) => r.body.status === 'processed')).toHaveLength(1);
      expect(results.filter((r) => r.body.status === 'duplicate')).toHaveLength(19);
      expect(await balance()).toBe(1200 + 25);
      // On PostgreSQL the embedded engine runs on each process's event loop, not on a thread of its own.
      for (const gateway of [a, b]) {
        expect(gateway.output()).toMatch(/loyalty engine started on the event loop \(PostgreSQL\)/);
        expect(gateway.output()).not.toMatch(/loyalty engine thread started/);
      }
    } finally {
      await Promise.all([stopGateway(a), stopGateway(b)]);
    }
  }, 90_000);

  it('the per-connection rate limit is shared across processes through Redis', async () => {
    const a = await spawnGateway(env('c', 6));
    const b = await spawnGateway(env('d', 6));
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 10; i += 1) statuses.push((await post(i % 2 === 0 ? a : b, JSON.stringify(sale({ total: 1 })))).status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(6);
      expect(statuses.filter((s) => s === 429)).toHaveLength(4);
    } finally {
      await Promise.all([stopGateway(a), stopGateway(b)]);
    }
  }, 90_000);
});
