import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startRecordedVendorServer, type RecordedVendorServer } from '@loyalty-gateway/core/testing';
import { startGateway, type RunningGateway } from '@loyalty-gateway/gateway';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdminCommand } from './run-admin-command.js';

const TOKEN = 'adm_cli_test_token_0123456789abcdef';
const dir = mkdtempSync(path.join(os.tmpdir(), 'lg-admin-cli-'));
let gateway: RunningGateway;
let clover: RecordedVendorServer;
let cloverUrl = '';
const cloverFixture = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`../../../adapters/clover/src/fixtures/${name}`, import.meta.url), 'utf8'));
const NATIVE_STORE = 'CLINATIVE0001';

/** Clover's API on core's recorded server: one short items page of three, and a paid order for the native-webhook test. */
async function startClover(): Promise<string> {
  clover = await startRecordedVendorServer({ key: ({ url }) => (url.pathname.endsWith('/items') ? 'items' : url.pathname) });
  clover.route('items', {
    body: { elements: [1, 2, 3].map((n) => ({ id: `CLI-ITEM-${n}`, name: `Item ${n}`, price: 250 * n, hidden: false })) },
  });
  clover.route(`/v3/merchants/${NATIVE_STORE}/orders/GHIVJT2ABCRSC`, { body: cloverFixture('order-paid.json') });
  clover.route(`/v3/merchants/${NATIVE_STORE}/customers/CUSTVJT2ABCRS`, { body: cloverFixture('customer.json') });
  return clover.baseUrl;
}

function seed(cloverUrl: string) {
  return {
    vendors: [
      { slug: 'acme-pos', name: 'Acme POS', tier: 'generic' },
      { slug: 'clover', name: 'Clover', tier: 'generic', settings: { authCode: 'clover-auth-code', apiBaseUrl: cloverUrl } },
    ],
    merchants: [
      {
        id: 'm-cli',
        name: 'CLI Coffee',
        currency: 'USD',
        defaultCountryCode: '1',
        earnRate: 1,
        redemptionRate: 100,
        outlets: [{ id: 'o-main', name: 'Main' }],
        connections: [],
        rewards: [],
        issuedCodes: [],
        members: [{ membershipId: 'MBR-CLI', email: 'jane.doe@example.com', points: 0 }],
      },
    ],
  };
}

/** The CLI in-process, as `loyalty-gateway admin ...` runs it; output captured. */
async function cli(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runAdminCommand([...argv, '--url', gateway.address, '--json'], {
    env: { GATEWAY_ADMIN_TOKEN: TOKEN },
    out: (t) => out.push(t),
    err: (t) => err.push(t),
    pollMs: 50,
  });
  return { code, json: out.length ? (JSON.parse(out.join('\n')) as Record<string, any>) : null, stderr: err.join('\n') };
}

beforeAll(async () => {
  const seedFile = path.join(dir, 'seed.json');
  cloverUrl = await startClover();
  writeFileSync(seedFile, JSON.stringify(seed(cloverUrl)));
  gateway = await startGateway({
    PORT: '0',
    HOST: '127.0.0.1',
    GATEWAY_ENV: 'uat',
    GATEWAY_DATA_DIR: path.join(dir, 'data'),
    GATEWAY_SEED_FILE: seedFile,
    GATEWAY_MASTER_KEY: Buffer.alloc(32, 7).toString('base64'),
    GATEWAY_ADMIN_TOKEN: TOKEN,
    GATEWAY_SCHEDULER: 'off',
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

describe('loyalty-gateway admin (against a real gateway on 127.0.0.1:0)', () => {
  it('vendors: list, promote, settings from a file (never printed), demote', async () => {
    const listed = await cli('vendors', 'list');
    expect(listed.code).toBe(0);
    // Vendors with a row, then the registered adapters without one.
    expect(listed.json?.vendors.map((v: { slug: string; exists: boolean }) => [v.slug, v.exists])).toEqual([
      ['acme-pos', true],
      ['clover', true],
      ['shopify', false],
      ['square', false],
      ['woocommerce', false],
    ]);
    const merchant = await cli(
      'merchants',
      'create',
      'm-cli-2',
      '--name',
      'CLI Café',
      '--currency',
      'USD',
      '--country-code',
      '1',
      '--earn-rate',
      '1',
      '--redemption-rate',
      '100',
    );
    expect(merchant.json, merchant.stderr).toMatchObject({ merchant: { id: 'm-cli-2', outlets: [] } });
    expect((await cli('merchants', 'add-outlet', 'm-cli-2', '--id', 'o-cli', '--name', 'Counter')).json).toMatchObject({
      merchant: { id: 'm-cli-2', outlets: [{ id: 'o-cli', name: 'Counter' }] },
    });
    expect((await cli('merchants', 'list')).json?.merchants.map((m: { id: string }) => m.id)).toEqual(['m-cli', 'm-cli-2']);
    expect(
      await cli(
        'merchants',
        'create',
        'm-cli',
        '--name',
        'Dup',
        '--currency',
        'USD',
        '--country-code',
        '1',
        '--earn-rate',
        '1',
        '--redemption-rate',
        '1',
      ),
    ).toMatchObject({ code: 1, stderr: expect.stringContaining('(merchant_exists, HTTP 409)') });
    const created = await cli('vendors', 'create', 'till-co', '--name', 'Till Co');
    expect(created.json).toMatchObject({ vendor: { slug: 'till-co', name: 'Till Co', tier: 'generic' } });
    expect((await cli('vendors', 'rename', 'till-co', '--name', 'Till Co Cloud')).json).toMatchObject({
      vendor: { slug: 'till-co', name: 'Till Co Cloud' },
    });
    expect(await cli('vendors', 'create', 'till-co', '--name', 'Again')).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('(vendor_exists, HTTP 409)'),
    });
    expect((await cli('vendors', 'promote', 'clover')).json).toMatchObject({ vendor: { slug: 'clover', tier: 'featured' } });
    const file = path.join(dir, 'settings.json');
    writeFileSync(file, JSON.stringify({ authCode: 'rotated-auth-code-77', apiBaseUrl: cloverUrl }));
    const settings = await cli('vendors', 'settings', 'clover', '--file', file);
    expect(settings.code).toBe(0);
    expect(settings.json).toMatchObject({ vendor: { slug: 'clover', tier: 'featured', hasSettings: true } });
    expect(JSON.stringify(settings.json)).not.toContain('rotated-auth-code-77');
    writeFileSync(file, JSON.stringify({ authCode: '' }));
    const invalid = await cli('vendors', 'settings', 'clover', '--file', file);
    expect(invalid).toMatchObject({ code: 1, stderr: expect.stringContaining('(invalid_settings, HTTP 422)') });
    const refused = await cli('vendors', 'promote', 'acme-pos');
    expect(refused.code).toBe(1);
    // Like every refusal, it says what to run next.
    expect(refused.stderr).toMatch(
      /^error: This gateway has no featured adapter for "acme-pos".*\(adapter_not_registered, HTTP 409\)\nSee which vendors this build has an adapter for \(adapter: yes\): loyalty-gateway admin vendors list$/,
    );
  });

  it('connections: create (secret once), rotate with overlap, list without secrets, deactivate / activate', async () => {
    const credentials = path.join(dir, 'credentials.json');
    writeFileSync(credentials, JSON.stringify({ accessToken: 'cli-access-token' }));
    const created = await cli(
      'connections',
      'create',
      '--vendor',
      'clover',
      '--store',
      'CLI-MERCHANT',
      '--merchant',
      'm-cli',
      '--outlet',
      'o-main',
      '--credentials-file',
      credentials,
    );
    expect(created.code).toBe(0);
    const id = created.json?.connection.id as string;
    const secret = created.json?.secret as string;
    expect(secret).toMatch(/^whsec_/);
    const rotated = await cli('connections', 'rotate', id, '--overlap-seconds', '600');
    expect(rotated.json).toMatchObject({ connection: { id, secretCount: 2 }, secret: expect.stringMatching(/^whsec_/) });
    const listed = await cli('connections', 'list', '--vendor', 'clover');
    expect(listed.json?.connections).toHaveLength(1);
    const text = JSON.stringify(listed.json);
    for (const hidden of [secret, rotated.json?.secret, 'cli-access-token']) expect(text).not.toContain(hidden);
    expect((await cli('connections', 'deactivate', id)).json).toMatchObject({ connection: { active: false } });
    expect((await cli('connections', 'activate', id)).json).toMatchObject({ connection: { active: true } });
    const again = await cli(
      'connections',
      'create',
      '--vendor',
      'clover',
      '--store',
      'CLI-MERCHANT',
      '--merchant',
      'm-cli',
      '--outlet',
      'o-main',
      '--credentials-file',
      credentials,
    );
    expect(again).toMatchObject({ code: 1, stderr: expect.stringContaining('(connection_exists, HTTP 409)') });
    const noToken = await cli(
      'connections',
      'create',
      '--vendor',
      'clover',
      '--store',
      'CLI-MERCHANT-2',
      '--merchant',
      'm-cli',
      '--outlet',
      'o-main',
    );
    expect(noToken).toMatchObject({
      code: 1,
      stderr: 'error: The credentials do not fit the Clover adapter: credentials.accessToken is required. (validation_failed, HTTP 422)',
    });
  });

  it('catalog: pull --wait ends with the recorded run; runs lists it', async () => {
    const id = ((await cli('connections', 'list', '--vendor', 'clover')).json?.connections[0] as { id: string }).id;
    const pulled = await cli('catalog', 'pull', '--vendor', 'clover', '--connection', id, '--wait');
    expect(pulled.code).toBe(0);
    expect(pulled.json).toMatchObject({ run: { status: 'succeeded', pages: 1, items: 3, created: 3, trigger: 'manual' } });
    const runs = await cli('catalog', 'runs', '--connection', id);
    expect(runs.json?.runs[0]).toMatchObject({ id: pulled.json?.run.id, status: 'succeeded' });
  });

  it('reconcile: a run whose order listing the vendor refuses exits 1 naming why; runs lists it failed', async () => {
    const id = ((await cli('connections', 'list', '--vendor', 'clover')).json?.connections[0] as { id: string }).id;
    const run = await cli('reconcile', 'run', id);
    expect(run).toMatchObject({ code: 1, stderr: expect.stringMatching(/^error: reconciliation run failed: .*404/) });
    const runs = await cli('reconcile', 'runs', '--connection', id);
    expect(runs.json?.runs[0]).toMatchObject({ connectionId: id, trigger: 'manual', status: 'failed', recovered: 0 });
    expect((await cli('reconcile', 'run', 'no-such-connection')).stderr).toContain('(connection_not_found, HTTP 404)');
  });

  it('promotion through the CLI takes effect at once: the native Clover webhook answers 404, then earns once, then 404 again', async () => {
    const settings = path.join(dir, 'native-settings.json');
    writeFileSync(settings, JSON.stringify({ authCode: 'native-auth-code', apiBaseUrl: cloverUrl }));
    expect((await cli('vendors', 'settings', 'clover', '--file', settings)).code).toBe(0);
    const credentials = path.join(dir, 'native-credentials.json');
    writeFileSync(credentials, JSON.stringify({ accessToken: 'native-token' }));
    expect(
      (
        await cli(
          'connections',
          'create',
          '--vendor',
          'clover',
          '--store',
          NATIVE_STORE,
          '--merchant',
          'm-cli',
          '--outlet',
          'o-main',
          '--credentials-file',
          credentials,
        )
      ).code,
    ).toBe(0);
    expect((await cli('vendors', 'demote', 'clover')).code).toBe(0);
    const body = JSON.stringify({
      appId: 'CLIAPP',
      merchants: { [NATIVE_STORE]: [{ objectId: 'O:GHIVJT2ABCRSC', type: 'UPDATE', ts: 1_700_000_000_000 }] },
    });
    const post = () =>
      fetch(`${gateway.address}/webhooks/clover`, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json', 'x-clover-auth': 'native-auth-code' },
      });

    expect((await post()).status).toBe(404);
    expect((await cli('vendors', 'promote', 'clover')).json).toMatchObject({ vendor: { slug: 'clover', tier: 'featured' } });
    const first = await post();
    expect(first.status).toBe(200);
    const [result] = ((await first.json()) as { results: Array<Record<string, unknown>> }).results;
    expect(result).toMatchObject({ storeId: NATIVE_STORE, transactionId: 'GHIVJT2ABCRSC', status: 'processed', membershipId: 'MBR-CLI' });
    expect(result!.pointsEarned).toBeGreaterThan(0);
    expect(((await (await post()).json()) as { results: Array<{ status: string }> }).results[0]?.status).toBe('duplicate');
    expect((await cli('vendors', 'demote', 'clover')).code).toBe(0);
    expect((await post()).status).toBe(404);
    expect((await cli('vendors', 'promote', 'clover')).code).toBe(0); // as the other tests expect it
  });

  it('connections subscriptions: an adapter that does not manage them says so in plain words (exit 1); no ID is a usage error', async () => {
    const created = await cli(
      'connections',
      'create',
      '--vendor',
      'acme-pos',
      '--store',
      'till-subscriptions',
      '--merchant',
      'm-cli',
      '--outlet',
      'o-main',
    );
    expect(created.code, created.stderr).toBe(0);
    expect(created.json?.subscriptions).toBeUndefined();
    const id = created.json?.connection.id as string;
    for (const argv of [
      ['connections', 'subscriptions', id],
      ['connections', 'subscriptions', 'ensure', id],
    ]) {
      const answer = await cli(...argv);
      expect(answer).toMatchObject({
        code: 1,
        stderr: expect.stringContaining('The acme-pos adapter does not manage webhook subscriptions'),
      });
    }
    expect((await cli('connections', 'subscriptions', 'ensure')).code).toBe(2);
  });

  it('prints tables and lines by default, and the command to run next with a refusal', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const io = {
      env: { GATEWAY_ADMIN_TOKEN: TOKEN, GATEWAY_URL: gateway.address },
      out: (t: string) => out.push(t),
      err: (t: string) => err.push(t),
    };
    expect(await runAdminCommand(['vendors', 'list'], io)).toBe(0); // the URL from GATEWAY_URL
    expect(out[0]).toMatch(/^vendors \(\d+\):\n  slug +name +tier/);
    expect(out[0]).toMatch(/\n  clover +Clover +featured/);
    expect(await runAdminCommand(['connections', 'deactivate', 'no-such-id'], io)).toBe(1);
    expect(err.at(-1)).toBe(
      'error: No connection with this id. (connection_not_found, HTTP 404)\nSee the connections and their ids: loyalty-gateway admin connections list',
    );
    expect(await runAdminCommand(['vendors', 'list', '--url', 'http://127.0.0.1:9'], io)).toBe(1);
    expect(err.at(-1)).toMatch(
      /^error: cannot reach the gateway at http:\/\/127\.0\.0\.1:9: .*\nIs the gateway running\? Start it with npm start, or point the CLI at it with --url or GATEWAY_URL\.$/,
    );
    expect(
      await runAdminCommand(
        [
          'merchants',
          'create',
          'm-bad',
          '--name',
          'x',
          '--currency',
          'euro',
          '--country-code',
          '33',
          '--earn-rate',
          '1',
          '--redemption-rate',
          '100',
        ],
        io,
      ),
    ).toBe(1);
    expect(err.at(-1)).toContain('currency must be a 3-letter ISO 4217 code'); // the field, named once
  });

  it('tables fit 120 columns by default and the width given (a terminal), ids whole, no JSON; --wide prints every field on one line', async () => {
    const run = async (argv: string[], width?: number) => {
      const out: string[] = [];
      const io = {
        env: { GATEWAY_ADMIN_TOKEN: TOKEN, GATEWAY_URL: gateway.address },
        out: (t: string) => out.push(t),
        err: () => {},
        width,
      };
      expect(await runAdminCommand(argv, io)).toBe(0);
      return out.join('\n').split('\n');
    };
    const { json } = await cli('connections', 'list');
    const ids: string[] = json?.connections.map((c: { id: string }) => c.id);
    expect(ids.length).toBeGreaterThan(0);
    for (const [argv, width] of [
      [['connections', 'list'], 120],
      [['connections', 'list'], 80],
      [['vendors', 'list'], 120],
      [['merchants', 'list'], 120],
      [['catalog', 'runs'], 120],
      [['reconcile', 'runs'], 120],
      [['vendors', 'notes', 'clover'], 120],
    ] as const) {
      const lines = await run([...argv], width === 120 ? undefined : width);
      const text = lines.join('\n');
      expect(Math.max(...lines.map((line) => line.length)), `${argv.join(' ')}:\n${text}`).toBeLessThanOrEqual(width);
      expect(text, argv.join(' ')).not.toMatch(/[{}"]|…/);
      if (argv[0] === 'connections') for (const id of ids) expect(text).toMatch(new RegExp(`^  ${id}  `, 'm'));
    }
    const wide = await run(['connections', 'list', '--wide']);
    expect(wide[1]).toMatch(
      /^ {2}id +vendor +storeId +merchantId +outletId +active +secretCount +hasCredentials +createdAt +clockSkew +activity$/,
    );
    expect(wide).toHaveLength(3 + ids.length); // the list's name, header, rule, one line per connection
    expect(wide.join('\n')).not.toMatch(/[{}"]|…/);
  });

  it('usage errors exit 2; a wrong token exits 1 with the Error body message', async () => {
    expect((await cli('connections', 'rotate')).code).toBe(2);
    expect((await cli('vendors', 'dance')).code).toBe(2);
    let stderr = '';
    const wrong = await runAdminCommand(['vendors', 'list', '--url', gateway.address, '--token', 'not-the-token'], {
      env: {},
      out: () => {},
      err: (t) => void (stderr = t),
    });
    expect(wrong).toBe(1);
    expect(stderr).toBe(
      "error: The admin API needs Authorization: Bearer <GATEWAY_ADMIN_TOKEN>. (admin_unauthorized, HTTP 401)\nSet GATEWAY_ADMIN_TOKEN to the gateway's admin token (or pass --token).",
    );
    expect(await runAdminCommand(['vendors', 'list'], { env: {}, out: () => {}, err: () => {} })).toBe(2); // no token at all
  });

  it('admin --help prints the usage and exits 0 (not refused as an unknown option, exit 2)', async () => {
    for (const argv of [['--help'], ['-h'], ['connections', 'rotate', '--help']]) {
      let stdout = '';
      let stderr = '';
      const code = await runAdminCommand(argv, { env: {}, out: (t) => void (stdout = t), err: (t) => void (stderr = t) });
      expect(code).toBe(0);
      expect(stdout).toContain('loyalty-gateway admin <group> <action>');
      expect(stderr).toBe('');
    }
  });

  it('the real binary: prints JSON with --json and exits non-zero on a refusal', async () => {
    const bin = fileURLToPath(new URL('../cli.ts', import.meta.url));
    const run = promisify(execFile);
    const env = { ...process.env, GATEWAY_ADMIN_TOKEN: TOKEN };
    const ok = await run(process.execPath, ['--import', 'tsx', bin, 'admin', 'vendors', 'list', '--url', gateway.address, '--json'], {
      env,
    });
    expect(JSON.parse(ok.stdout).vendors.map((v: { slug: string }) => v.slug)).toEqual(
      expect.arrayContaining(['acme-pos', 'clover', 'shopify', 'square']),
    );
    const failed = await run(process.execPath, ['--import', 'tsx', bin, 'admin', 'vendors', 'demote', 'ghost', '--url', gateway.address], {
      env,
    }).catch((e: { code: number; stderr: string }) => e);
    expect(failed).toMatchObject({ code: 1, stderr: expect.stringContaining('No vendor with this slug. (vendor_not_found, HTTP 404)') });
  }, 30_000);
});
