import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createDatabase, createEmbeddedEngine } from '@loyalty-gateway/engine';
import { afterAll, describe, expect, it } from 'vitest';
import { headersFor } from './testing/gateway-fixture.js';
import { exited, spawnGateway } from './testing/spawn-gateway.js';
import { STORE, VENDOR, sale, testSeedDocument } from './testing/test-seed.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'lg-crash-'));
const seedFile = path.join(dir, 'seed.json');
writeFileSync(seedFile, JSON.stringify(testSeedDocument()));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const env = {
  ...process.env,
  PORT: '0', HOST: '127.0.0.1', GATEWAY_ENV: 'uat', GATEWAY_DATA_DIR: path.join(dir, 'data'), GATEWAY_SEED_FILE: seedFile,
  GATEWAY_MASTER_KEY: Buffer.alloc(32, 9).toString('base64'), DATABASE_URL: '', REDIS_URL: '', LOYALTY_ENGINE_URL: '',
  GATEWAY_RATE_LIMIT: '1000000', LOG_LEVEL: 'info',
};

const start = () => spawnGateway(env);

async function post(url: string, body: string): Promise<{ status: number; result?: string }> {
  const response = await fetch(`${url}/webhooks/generic`, { method: 'POST', headers: headersFor(body), body });
  return { status: response.status, result: response.status === 200 ? ((await response.json()) as { status: string }).status : undefined };
}

async function balance(): Promise<number> {
  const database = createDatabase<any>({ sqliteFile: path.join(dir, 'data', 'engine.sqlite') });
  const engine = await createEmbeddedEngine({ database });
  try {
    const result = await engine.eligibility({
      merchantId: 'm-bean', outletId: 'o-downtown', source: { vendor: VENDOR, storeId: STORE }, customer: { type: 'membershipId', value: 'MBR-0001' },
    });
    return result.walletBalance;
  } finally {
    await engine.close();
    await database.close();
  }
}

describe('kill -9 during traffic, restart on the same data dir', () => {
  it('every sale counts exactly once; nothing answered 200 is lost', async () => {
    const sales = Array.from({ length: 400 }, (_, i) => JSON.stringify(sale({ id: `CRASH-${i}`, total: 1 })));
    const first = await start();
    const okBeforeKill = new Set<number>();
    let next = 0;
    let killed = false;
    const worker = async () => {
      while (next < sales.length && !killed) {
        const i = next++;
        try {
          const { status } = await post(first.url, sales[i]!);
          if (status === 200) okBeforeKill.add(i);
          if (okBeforeKill.size >= 120 && !killed) {
            killed = true;
            first.child.kill('SIGKILL');
          }
        } catch {
          // connection reset by the kill: the vendor will retry this one
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    await exited(first.child);
    expect(killed).toBe(true);
    expect(okBeforeKill.size).toBeGreaterThanOrEqual(120);
    expect(okBeforeKill.size).toBeLessThan(sales.length);

    const second = await start();
    try {
      const results = [];
      for (let i = 0; i < sales.length; i += 1) results.push(await post(second.url, sales[i]!));
      expect(results.every((r) => r.status === 200)).toBe(true);
      // Every sale answered 200 before the kill is in the ledger: its retry is a duplicate.
      for (const i of okBeforeKill) expect(results[i]!.result, `sale ${i}`).toBe('duplicate');
    } finally {
      second.child.kill('SIGTERM');
      await exited(second.child);
    }
    // 1 point per sale, each exactly once (seeded balance 1200).
    expect(await balance()).toBe(1200 + sales.length);
  }, 120_000);
});
