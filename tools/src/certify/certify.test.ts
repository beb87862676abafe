import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { startGateway, type RunningGateway } from '@loyalty-gateway/gateway';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatCertification, runCertification } from './run-certification.js';

const SECRET = 'whsec_certify_test_secret_0123456789';
const STORE = 'Store 7 / Downtown';
const dir = mkdtempSync(path.join(os.tmpdir(), 'lg-certify-'));
let gateway: RunningGateway;

const seed = {
  vendors: [{ slug: 'acme-pos', name: 'Acme POS', tier: 'generic' }],
  merchants: [
    {
      id: 'm-cert',
      name: 'Certify Coffee',
      currency: 'USD',
      defaultCountryCode: '1',
      earnRate: 1,
      redemptionRate: 100,
      outlets: [{ id: 'o-main', name: 'Main' }],
      connections: [{ vendor: 'acme-pos', storeId: STORE, outletId: 'o-main', secret: SECRET, active: true }],
      members: [{ membershipId: 'MBR-CERT', points: 0 }],
      rewards: [],
      issuedCodes: [],
    },
  ],
};

beforeAll(async () => {
  const seedFile = path.join(dir, 'seed.json');
  writeFileSync(seedFile, JSON.stringify(seed));
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
}, 60_000);
afterAll(async () => {
  await gateway?.close();
  rmSync(dir, { recursive: true, force: true });
});

const options = () => ({ url: gateway.address, vendor: 'acme-pos', store: STORE, secret: SECRET });

describe('certify (against a real gateway on 127.0.0.1:0)', () => {
  it('passes every check against the gateway, with a member: the sale earns and the refund reverses', async () => {
    const results = await runCertification({ ...options(), customer: { type: 'membershipId', value: 'MBR-CERT' } });
    expect(results.filter((r) => !r.ok)).toEqual([]);
    expect(results.length).toBeGreaterThanOrEqual(13);
    expect(results.find((r) => r.name.includes('previewed first'))?.detail).toMatch(/HTTP 200 would_process .*, would earn 12 points$/);
    expect(results.find((r) => r.name.includes('finalised sale'))?.detail).toMatch(/HTTP 200 processed .*, 12 points \(previewed 12\)$/);
    expect(results.find((r) => r.name.includes('partial refund'))?.detail).toMatch(/, 4 points reversed$/); // floor(12 × 5 / 12.50);
    expect(formatCertification(results)).toContain(`All ${results.length} checks passed.`);
  });

  it('passes again for a walk-in (a run can be repeated: every sale is new)', async () => {
    const results = await runCertification(options());
    expect(results.every((r) => r.ok)).toBe(true);
  });

  it('a wrong secret stops the run once, after the connection test, naming what to check (not ten failures)', async () => {
    const results = await runCertification({ ...options(), secret: 'whsec_wrong' });
    expect(results.map((r) => r.name)).toEqual([
      'the gateway is reachable',
      'connection test: sale.voided is accepted and ignored',
      'credentials',
    ]);
    expect(results[1]).toMatchObject({
      ok: false,
      detail: expect.stringMatching(/^HTTP 401 bad_signature \(request certify-[0-9a-f]{8}-\d+\)/),
    });
    expect(results[2]!.detail).toBe(
      'secret rejected: check the secret and the store id (the vendor slug too), then run certify again (no other check was run)',
    );
    expect(formatCertification(results)).toContain('2 of 3 checks failed.');
  });
});

describe('certify against an endpoint that is not idempotent', () => {
  let server: Server;
  let url = '';
  beforeAll(async () => {
    // Answers every request as a fresh, processed sale: what a naive implementation would do.
    server = createServer((req, res) => {
      req.resume().on('end', () => {
        const body =
          req.url === '/health'
            ? 'ok'
            : JSON.stringify({ status: 'processed', membershipId: '', pointsEarned: 0, stampsUpdated: [], warning: null });
        res.writeHead(200, { 'content-type': req.url === '/health' ? 'text/plain' : 'application/json' }).end(body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('reports each rule it breaks', async () => {
    const results = await runCertification({ url, vendor: 'acme-pos', store: STORE, secret: SECRET });
    const failed = results.filter((r) => !r.ok).map((r) => r.name);
    expect(failed).toEqual(
      expect.arrayContaining([
        'the same sale sent again earns nothing',
        'a preview of the recorded sale says it would be a duplicate',
        'a wrong signature is refused',
        'a timestamp ten minutes old is refused',
        'store.id must equal the X-Service-Store header',
        'an unknown field is refused with its path',
        'malformed JSON is refused',
      ]),
    );
    expect(results.find((r) => r.name === 'the gateway is reachable')?.ok).toBe(true);
  });

  it('fails a check that cannot reach the gateway instead of stopping', async () => {
    const results = await runCertification({ url: 'http://127.0.0.1:1', vendor: 'acme-pos', store: STORE, secret: SECRET });
    expect(results.every((r) => !r.ok && r.detail.startsWith('failed to run:'))).toBe(true);
  });
});
