import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startRecordedVendorServer, type RecordedVendorServer } from '@loyalty-gateway/core/testing';
import { startGateway, type RunningGateway } from '@loyalty-gateway/gateway';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdminCommand } from './run-admin-command.js';

const TOKEN = 'adm_preview_cli_token_0123456789abcdef';
const STORE = 'CLIPREVIEW001';
const dir = mkdtempSync(path.join(os.tmpdir(), 'lg-adapter-preview-'));
const fixture = (name: string): string => readFileSync(new URL(`../../../adapters/clover/src/fixtures/${name}`, import.meta.url), 'utf8');
let gateway: RunningGateway;
let clover: RecordedVendorServer;

/** `loyalty-gateway admin …` in-process, its output captured. */
async function admin(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runAdminCommand([...argv, '--url', gateway.address], {
    env: { GATEWAY_ADMIN_TOKEN: TOKEN },
    out: (t) => out.push(t),
    err: (t) => err.push(t),
  });
  return { code, stdout: out.join('\n'), stderr: err.join('\n') };
}

beforeAll(async () => {
  clover = await startRecordedVendorServer();
  clover.route(`/v3/merchants/${STORE}/orders/GHIVJT2ABCRSC`, { body: JSON.parse(fixture('order-paid.json')) });
  clover.route(`/v3/merchants/${STORE}/customers/CUSTVJT2ABCRS`, { body: JSON.parse(fixture('customer.json')) });
  const seedFile = path.join(dir, 'seed.json');
  writeFileSync(
    seedFile,
    JSON.stringify({
      vendors: [
        { slug: 'clover', name: 'Clover', tier: 'generic', settings: { authCode: 'preview-auth-code', apiBaseUrl: clover.baseUrl } },
      ],
      merchants: [
        {
          id: 'm-preview',
          name: 'Preview Coffee',
          currency: 'USD',
          defaultCountryCode: '1',
          earnRate: 1,
          redemptionRate: 100,
          outlets: [{ id: 'o-main', name: 'Main' }],
          connections: [
            {
              vendor: 'clover',
              storeId: STORE,
              outletId: 'o-main',
              secret: 'whsec_preview_0123456789',
              credentials: { accessToken: 'preview-token' },
            },
          ],
          rewards: [],
          issuedCodes: [],
          members: [{ membershipId: 'MBR-PREVIEW', email: 'jane.doe@example.com', points: 0 }],
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
    GATEWAY_MASTER_KEY: Buffer.alloc(32, 5).toString('base64'),
    GATEWAY_ADMIN_TOKEN: TOKEN,
    GATEWAY_SCHEDULER: 'off',
    GATEWAY_OUTBOUND_ALLOW: '127.0.0.1',
    DATABASE_URL: '',
    REDIS_URL: '',
    LOYALTY_ENGINE_URL: '',
    LOG_LEVEL: 'silent',
  });
}, 60_000);
afterAll(async () => {
  await gateway?.close();
  await clover?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('loyalty-gateway admin adapters preview (against a real gateway)', () => {
  const payload = path.join(dir, 'clover-batch.json');
  writeFileSync(
    payload,
    JSON.stringify({ appId: 'APP', merchants: { [STORE]: [{ objectId: 'O:GHIVJT2ABCRSC', type: 'UPDATE', ts: 1 }] } }),
  );

  it("maps the payload for its store's connection and prints what each event would do, then each envelope; nothing earned", async () => {
    const asked = await admin('adapters', 'preview', 'clover', '--file', payload, '--fetch-back');
    expect(asked.stderr).toBe('');
    expect(asked.code).toBe(0);
    expect(asked.stdout.replace(/\s+/g, ' ')).toMatch(
      new RegExp(`^store ${STORE} mapped for connection \\S+ \\(${STORE}, merchant m-preview, outlet o-main\\)`),
    );
    expect(asked.stdout.replace(/\s+/g, ' ')).toMatch(/sale\.completed GHIVJT2ABCRSC would_process \d+ points for MBR-PREVIEW/);
    expect(asked.stdout).toContain('envelope 2 (sale.completed):');
    expect(asked.stdout).toContain(`"id": "${STORE}"`);
    expect(asked.stdout).toContain('Nothing was committed');
    // The same preview again would still process: nothing was recorded.
    const json = await admin('adapters', 'preview', 'clover', '--file', payload, '--store', STORE, '--fetch-back', '--json');
    const events = JSON.parse(json.stdout).units[0].events as Array<{ preview: { status: string } }>;
    expect(events.map((e) => e.preview.status)).toEqual(['not_previewed', 'would_process']);
  });

  it('without --fetch-back says which call it would make; an unknown adapter is refused with the next step', async () => {
    const calls = clover.seen.length;
    const result = await admin('adapters', 'preview', 'clover', '--file', payload, '--store', STORE);
    expect(result.code).toBe(0);
    expect(result.stdout.replace(/\s+/g, ' ')).toContain('vendor_api_unavailable');
    expect(result.stdout.replace(/\s+/g, ' ')).toContain('not called: this preview was not asked to fetch back');
    expect(clover.seen.length).toBe(calls);
    const unknown = await admin('adapters', 'preview', 'nope', '--file', payload);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no featured adapter');
    expect((await admin('adapters', 'preview', 'clover', '--file', payload, '--header', 'no colon')).code).toBe(2);
  });
});
