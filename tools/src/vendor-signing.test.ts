import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { verifyV1 } from '@loyalty-gateway/core';
import { startGateway, type RunningGateway } from '@loyalty-gateway/gateway';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain JavaScript module (JSDoc types), shipped for vendors to copy
import { signV1, signedRequestHeaders } from '../vendor-signing/loyalty-signing.mjs';

const SECRET = 'whsec_vendor_signing_test_secret_0123456789';
const body = JSON.stringify({ eventId: 'T-1:paid', eventType: 'sale.completed', transaction: { id: 'T-1', total: 12.5 }, note: 'café ☕' });

describe("the vendor signing helpers verify against the gateway's own verifier", () => {
  it('Node: the zero-dependency module (tools/vendor-signing/loyalty-signing.mjs)', () => {
    const headers = signedRequestHeaders({
      secret: SECRET,
      vendor: 'acme-pos',
      storeId: 'store-001',
      body,
      nowSeconds: 1_764_000_000,
      requestId: 'trace-1',
    });
    expect(headers).toMatchObject({
      'X-Service-Vendor': 'acme-pos',
      'X-Service-Store': 'store-001',
      'X-Service-Timestamp': '1764000000',
      'X-Request-ID': 'trace-1',
    });
    expect(verifyV1([SECRET], '1764000000', body, headers['X-Service-Signature'])).toBe(true);
    expect(verifyV1([SECRET], '1764000001', body, headers['X-Service-Signature'])).toBe(false);
    expect(signV1(SECRET, 1_764_000_000, Buffer.from(body))).toBe(headers['X-Service-Signature']);
  });

  it('Python: the snippet in docs/generic-integration.md, run as printed', () => {
    const guide = readFileSync(new URL('../../docs/generic-integration.md', import.meta.url), 'utf8');
    const snippet = /```python\n([\s\S]*?)```/.exec(guide)?.[1];
    expect(snippet).toContain('hmac.new');
    const envelope = JSON.parse(body) as unknown;
    const program = `secret = ${JSON.stringify(SECRET)}\nenvelope = ${JSON.stringify(envelope)}\n${snippet}\nimport sys\nsys.stdout.write(timestamp + "\\n" + signature + "\\n" + body.decode())\n`;
    const [timestamp, signature, sent] = execFileSync('python3', ['-c', program], { encoding: 'utf8' }).split('\n', 3) as [
      string,
      string,
      string,
    ];
    expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(60);
    expect(verifyV1([SECRET], timestamp, Buffer.from(sent, 'utf8'), signature)).toBe(true);
    expect(JSON.parse(sent)).toEqual(envelope);
  });
});

describe("the guide's complete send examples, run as printed against a real gateway", () => {
  const SECRET_SEND = 'whsec_guide_send_example_0123456789';
  let gateway: RunningGateway;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lg-guide-send-'));
  const guide = readFileSync(new URL('../../docs/generic-integration.md', import.meta.url), 'utf8');
  const complete = guide.slice(guide.indexOf('A complete send'));
  beforeAll(async () => {
    const seedFile = path.join(dir, 'seed.json');
    writeFileSync(
      seedFile,
      JSON.stringify({
        vendors: [{ slug: 'acme-pos', name: 'Acme POS', tier: 'generic' }],
        merchants: [
          {
            id: 'm-guide',
            name: 'Guide Café',
            currency: 'USD',
            defaultCountryCode: '1',
            earnRate: 1,
            redemptionRate: 100,
            outlets: [{ id: 'o-1', name: 'One' }],
            connections: [{ vendor: 'acme-pos', storeId: 'store-001', outletId: 'o-1', secret: SECRET_SEND }],
            members: [],
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
      GATEWAY_ADMIN_TOKEN: 'adm_guide_send_0123456789abcdef',
      GATEWAY_SCHEDULER: 'off',
      DATABASE_URL: '',
      REDIS_URL: '',
      LOYALTY_ENGINE_URL: '',
      LOG_LEVEL: 'silent',
    });
  }, 60_000);
  afterAll(async () => {
    await gateway?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  // Asynchronous: the gateway answers from this very process, so a blocking child would deadlock.
  const runAsync = promisify(execFile);

  it('Node.js: 200 processed, money sent as cents / 100', async () => {
    const snippet = /```js\n([\s\S]*?)```/.exec(complete)![1]!;
    copyFileSync(new URL('../vendor-signing/loyalty-signing.mjs', import.meta.url), path.join(dir, 'loyalty-signing.mjs'));
    const file = path.join(dir, 'send.mjs');
    writeFileSync(
      file,
      `const baseUrl = ${JSON.stringify(gateway.address)}, storeId = 'store-001', vendor = 'acme-pos', secret = ${JSON.stringify(SECRET_SEND)};\n${snippet}`,
    );
    expect(
      (
        await runAsync(process.execPath, [file], {
          encoding: 'utf8',
          timeout: 20_000,
          env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' },
        })
      ).stdout,
    ).toMatch(/^200 \{.*status: 'processed'/s);
  });

  it('Python: 200 processed', async () => {
    const snippet = /```python\n([\s\S]*?)```/.exec(complete)![1]!.replace('"T-1001"', '"T-1002"').replace('"evt-1001"', '"evt-1002"');
    const program = `base_url = ${JSON.stringify(gateway.address)}\nstore_id = "store-001"\nvendor = "acme-pos"\nsecret = ${JSON.stringify(SECRET_SEND)}\n${snippet}`;
    expect(JSON.parse((await runAsync('python3', ['-c', program], { encoding: 'utf8', timeout: 20_000 })).stdout)).toMatchObject({
      status: 'processed',
    }); // processed, not duplicate: its own transaction id
  });

  describe("the debugging section's delivery log reads, run as printed (a GET signed over the timestamp and the empty body)", () => {
    const debugging = guide.slice(guide.indexOf('## 8. Debugging your integration'));

    it("Node.js: the signing module's GET headers", async () => {
      const snippet = /```js\n([\s\S]*?)```/.exec(debugging)![1]!;
      copyFileSync(new URL('../vendor-signing/loyalty-signing.mjs', import.meta.url), path.join(dir, 'loyalty-signing.mjs'));
      const file = path.join(dir, 'deliveries.mjs');
      writeFileSync(
        file,
        `const baseUrl = ${JSON.stringify(gateway.address)}, storeId = 'store-001', vendor = 'acme-pos', secret = ${JSON.stringify(SECRET_SEND)};\n${snippet.replace('console.log(await answer.json())', 'console.log(JSON.stringify(await answer.json()))')}`,
      );
      const { stdout } = await runAsync(process.execPath, [file], { encoding: 'utf8', timeout: 20_000 });
      expect(JSON.parse(stdout)).toEqual({ deliveries: [], nextCursor: null }); // status=422: none of the examples was refused
    });

    it('Python: the store sees its own sales, as the earlier examples sent them', async () => {
      const snippet = /```python\n([\s\S]*?)```/.exec(debugging)![1]!;
      const program = `base_url = ${JSON.stringify(gateway.address)}\nstore_id = "store-001"\nvendor = "acme-pos"\nsecret = ${JSON.stringify(SECRET_SEND)}\n${snippet}`;
      const page = JSON.parse((await runAsync('python3', ['-c', program], { encoding: 'utf8', timeout: 20_000 })).stdout) as {
        deliveries: Array<{ transactionId: string; outcome: string }>;
      };
      expect(page.deliveries.map((d) => [d.transactionId, d.outcome])).toEqual([
        ['T-1002', 'processed'],
        ['T-1001', 'processed'],
      ]);
    });
  });
});
