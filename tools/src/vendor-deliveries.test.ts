import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startGateway, type RunningGateway } from '@loyalty-gateway/gateway';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain JavaScript module (JSDoc types), shipped for vendors to copy
import { signedGetHeaders } from '../vendor-signing/loyalty-signing.mjs';
import { sampleSale } from './sample-sale.js';
import { sendSigned } from './send-signed.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SECRET_A = 'whsec_deliveries_store_a_0123456789';
const SECRET_B = 'whsec_deliveries_store_b_0123456789';
const dir = mkdtempSync(path.join(os.tmpdir(), 'lg-deliveries-'));
let gateway: RunningGateway;

/** The CLI as `npm run cli --` runs it (asynchronously: the gateway answers from this very process). */
function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'tools/src/cli.ts', ...args],
      { cwd: root, env: { ...process.env, GATEWAY_URL: gateway.address, COLUMNS: '200' } },
      (error, stdout, stderr) => resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

beforeAll(async () => {
  const seedFile = path.join(dir, 'seed.json');
  writeFileSync(
    seedFile,
    JSON.stringify({
      vendors: [{ slug: 'acme-pos', name: 'Acme POS', tier: 'generic' }],
      merchants: [
        {
          id: 'm-log',
          name: 'Log Café',
          currency: 'USD',
          defaultCountryCode: '1',
          earnRate: 1,
          redemptionRate: 100,
          outlets: [{ id: 'o-1', name: 'One' }],
          connections: [
            { vendor: 'acme-pos', storeId: 'store-a', outletId: 'o-1', secret: SECRET_A },
            { vendor: 'acme-pos', storeId: 'store-b', outletId: 'o-1', secret: SECRET_B },
          ],
          members: [{ membershipId: 'MBR-LOG', points: 0 }],
          rewards: [],
          issuedCodes: [],
        },
      ],
    }),
  );
  gateway = await startGateway({
    PORT: '0',
    HOST: '127.0.0.1',
    GATEWAY_ENV: 'uat',
    GATEWAY_DATA_DIR: path.join(dir, 'data'),
    GATEWAY_SEED_FILE: seedFile,
    GATEWAY_MASTER_KEY: Buffer.alloc(32, 9).toString('base64'),
    GATEWAY_SCHEDULER: 'off',
    DATABASE_URL: '',
    REDIS_URL: '',
    LOYALTY_ENGINE_URL: '',
    LOG_LEVEL: 'silent',
  });
  const send = (storeId: string, secret: string, body: unknown) =>
    sendSigned({ url: `${gateway.address}/webhooks/generic`, vendor: 'acme-pos', store: storeId, secret, body: JSON.stringify(body) });
  await send(
    'store-a',
    SECRET_A,
    sampleSale({ storeId: 'store-a', transactionId: 'LOG-A-1', customer: { type: 'membershipId', value: 'MBR-LOG' } }),
  );
  const bad = sampleSale({ storeId: 'store-a', transactionId: 'LOG-A-2' });
  await send('store-a', SECRET_A, { ...bad, transaction: { ...bad.transaction, tip: 1 } });
  await send('store-b', SECRET_B, sampleSale({ storeId: 'store-b', transactionId: 'LOG-B-1' }));
}, 60_000);
afterAll(async () => {
  await gateway?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('loyalty-gateway deliveries (against a real gateway on 127.0.0.1:0)', () => {
  const asA = ['deliveries', '--vendor', 'acme-pos', '--store', 'store-a', '--secret', SECRET_A];

  it("prints the store's own log as a table: its sale and what it earned, its refusal and the field named; never the other store's", async () => {
    const result = await cli(asA);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^received\s+request id\s+event\s+transaction\s+points\s+answer\n/);
    expect(result.stdout).toMatch(/sale\.completed\s+LOG-A-1\s+12\s+200 processed/);
    // The answer wraps in its column (the last one): read as words.
    expect(result.stdout.replace(/\s+/g, ' ')).toContain('422 validation_failed: transaction.tip unknown field');
    expect(result.stdout).not.toContain('LOG-B-1');
  });

  it('filters (--status), pages (--limit, then the --cursor it prints) and prints JSON (--json)', async () => {
    const refused = JSON.parse((await cli([...asA, '--status', '422', '--json'])).stdout);
    expect(refused.deliveries.map((d: { code: string }) => d.code)).toEqual(['validation_failed']);
    const first = await cli([...asA, '--limit', '1']);
    const cursor = /--cursor (\S+)/.exec(first.stdout)?.[1];
    expect(cursor).toBeDefined();
    const second = JSON.parse((await cli([...asA, '--limit', '1', '--cursor', cursor!, '--json'])).stdout);
    expect(second.deliveries.map((d: { transactionId: string }) => d.transactionId)).toEqual(['LOG-A-1']);
    expect(second.nextCursor).toBeNull();
  });

  it("a refusal is printed with the gateway's answer, exit 1", async () => {
    const result = await cli(['deliveries', '--vendor', 'acme-pos', '--store', 'store-a', '--secret', SECRET_B]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('HTTP 401');
    expect(result.stderr).toContain('bad_signature');
  });

  it("the signing module's GET headers are what the gateway verifies", async () => {
    const response = await fetch(`${gateway.address}/v1/deliveries?transactionId=LOG-B-1`, {
      headers: signedGetHeaders({ secret: SECRET_B, vendor: 'acme-pos', storeId: 'store-b' }),
    });
    expect(response.status).toBe(200);
    const page = (await response.json()) as { deliveries: Array<{ transactionId: string; outcome: string }> };
    expect(page.deliveries).toMatchObject([{ transactionId: 'LOG-B-1', outcome: 'processed' }]);
  });
});
