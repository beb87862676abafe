import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { signedHeaders } from '@loyalty-gateway/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSeed } from './boot/seed-schema.js';
import { DEMO_CREDENTIALS_FILE } from './boot/demo.js';
import { TEST_ENGINE_TOKEN, openEngineService, type EngineServiceHarness } from './testing/engine-service-harness.js';
import { startGateway } from './start-gateway.js';
import { SECRET, STORE, VENDOR, sale, testSeedDocument } from './testing/test-seed.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'lg-remote-'));
const seedFile = path.join(dir, 'seed.json');
let service: EngineServiceHarness;

beforeAll(async () => {
  writeFileSync(seedFile, JSON.stringify(testSeedDocument()));
  service = await openEngineService('sqlite');
  const parsed = parseSeed(testSeedDocument());
  if (!('seed' in parsed)) throw new Error('seed invalid');
  await service.embedded.applySeed(parsed.seed.engine); // what the service's ENGINE_SEED_FILE does
});
afterAll(async () => {
  await service.close();
  rmSync(dir, { recursive: true, force: true });
});

const post = (url: string, body: unknown) => {
  const raw = JSON.stringify(body);
  const headers = { 'content-type': 'application/json', ...signedHeaders({ vendor: VENDOR, store: STORE, secret: SECRET, body: raw }) };
  return fetch(url, { method: 'POST', headers, body: raw });
};

describe('startGateway with LOYALTY_ENGINE_URL', () => {
  it('uses the engine service: earn and redeem land in its ledger; connections seeded, no demo; ready', async () => {
    const dataDir = path.join(dir, 'data');
    const gateway = await startGateway({
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: '',
      REDIS_URL: '',
      LOG_LEVEL: 'silent',
      GATEWAY_ENV: 'development',
      GATEWAY_SCHEDULER: 'off',
      GATEWAY_DATA_DIR: dataDir,
      GATEWAY_SEED_FILE: seedFile,
      LOYALTY_ENGINE_URL: service.url,
      LOYALTY_ENGINE_TOKEN: TEST_ENGINE_TOKEN,
      LOYALTY_ENGINE_TIMEOUT_MS: '1000',
    });
    try {
      expect(existsSync(path.join(dataDir, DEMO_CREDENTIALS_FILE))).toBe(false);
      const ready = await fetch(`${gateway.address}/ready`);
      expect([ready.status, await ready.json()]).toEqual([200, { status: 'ready', checks: { store: 'ok', engine: 'ok' } }]);
      const before = (await service.embedded.eligibility(scope())).walletBalance;
      const earned = await post(`${gateway.address}/webhooks/generic`, sale({ total: 30 }));
      expect(await earned.json()).toMatchObject({ status: 'processed', membershipId: 'MBR-0001', pointsEarned: 30 });
      const redeemed = await post(`${gateway.address}/v1/redemption/redeem`, {
        customer: { type: 'membershipId', value: 'MBR-0001' },
        externalTransactionId: `remote-${Date.now()}`,
        pointsToRedeem: 10,
      });
      expect(await redeemed.json()).toMatchObject({ status: 'REDEEMED', pointsDeducted: 10, walletBalance: before + 20 });
      expect((await service.embedded.eligibility(scope())).walletBalance).toBe(before + 20);
    } finally {
      await gateway.close();
    }
  });
});

describe('startGateway with LOYALTY_ENGINE_URL under concurrent sales', () => {
  it('concurrent earns (batched when they meet in one turn) land exactly once; their retries are duplicates', async () => {
    const gateway = await startGateway({
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: '',
      REDIS_URL: '',
      LOG_LEVEL: 'silent',
      GATEWAY_ENV: 'development',
      GATEWAY_SCHEDULER: 'off',
      GATEWAY_DATA_DIR: path.join(dir, 'data-concurrent'),
      GATEWAY_SEED_FILE: seedFile,
      LOYALTY_ENGINE_URL: service.url,
      LOYALTY_ENGINE_TOKEN: TEST_ENGINE_TOKEN,
    });
    try {
      const before = (await service.embedded.eligibility(scope())).walletBalance;
      const sales = Array.from({ length: 60 }, (_, i) => sale({ id: `BATCH-${Date.now()}-${i}`, total: 1 }));
      const answers = await Promise.all(sales.map(async (body) => (await post(`${gateway.address}/webhooks/generic`, body)).json()));
      expect(answers.map((a) => (a as { status: string }).status)).toEqual(Array(60).fill('processed'));
      // The vendors' retries as new events of the same sales: the engine's ledger keys answer duplicate.
      const retries = await Promise.all(
        sales.map(async (body) =>
          (await post(`${gateway.address}/webhooks/generic`, { ...body, eventId: `${body.eventId}:retry` })).json(),
        ),
      );
      expect(retries.map((a) => (a as { status: string }).status)).toEqual(Array(60).fill('duplicate'));
      expect((await service.embedded.eligibility(scope())).walletBalance).toBe(before + 60);
    } finally {
      await gateway.close();
    }
  });
});

function scope() {
  return {
    merchantId: 'm-bean',
    outletId: 'o-downtown',
    source: { vendor: VENDOR, storeId: STORE },
    customer: { type: 'membershipId' as const, value: 'MBR-0001' },
  };
}
