import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startGateway, type RunningGateway } from '@loyalty-gateway/gateway';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dir = mkdtempSync(path.join(os.tmpdir(), 'lg-onboarding-'));
const TOKEN = 'adm_onboarding_token_0123456789abcdef';
const guide = readFileSync(path.join(root, 'docs/operators.md'), 'utf8');
let gateway: RunningGateway;
let bin: string;

/**
 * The CLI as a stranger gets it: `npm pack` of its compiled package, installed into an empty
 * directory with no network and no monorepo around it.
 */
async function installPackedCli(): Promise<string> {
  // Its own copy of tools/dist (other tests read that one while this builds).
  const packageDir = path.join(dir, 'cli-package');
  await run(process.execPath, ['tools/build/bundle.mjs', 'tools', packageDir], { cwd: root });
  const { stdout } = await run('npm', ['pack', packageDir, '--pack-destination', dir, '--silent'], { cwd: dir });
  const project = path.join(dir, 'project');
  mkdirSync(project);
  writeFileSync(path.join(project, 'package.json'), '{"name":"onboarding-check","private":true}');
  await run('npm', ['install', '--offline', '--no-audit', '--no-fund', path.join(dir, stdout.trim().split('\n').at(-1)!)], {
    cwd: project,
  });
  return path.join(project, 'node_modules/.bin/loyalty-gateway');
}

/**
 * One line of the guide's runbook, run by the installed binary. The line (with the values this
 * run produced put back as the guide's placeholders) must be in docs/operators.md word for word:
 * the guide and this test cannot drift apart.
 */
async function step(line: string, values: Record<string, string> = {}): Promise<{ code: number; out: string }> {
  let documented = line;
  for (const [placeholder, value] of Object.entries(values)) documented = documented.replaceAll(value, placeholder);
  expect(guide, `docs/operators.md should show: ${documented}`).toContain(documented);
  const argv = [...line.replace(/^npx loyalty-gateway /, '').matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]!);
  const env = { PATH: process.env.PATH, GATEWAY_URL: gateway.address, GATEWAY_ADMIN_TOKEN: TOKEN };
  try {
    const { stdout } = await run(bin, argv, { cwd: root, env });
    return { code: 0, out: stdout };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, out: `${failed.stdout}${failed.stderr}` };
  }
}

beforeAll(async () => {
  bin = await installPackedCli();
  // A fresh gateway as `npm start` makes it (development, embedded engine, its demo sandbox), with an admin token.
  gateway = await startGateway({
    PORT: '0',
    HOST: '127.0.0.1',
    GATEWAY_ENV: 'development',
    GATEWAY_DATA_DIR: path.join(dir, 'data'),
    GATEWAY_ADMIN_TOKEN: TOKEN,
    GATEWAY_SCHEDULER: 'off',
    DATABASE_URL: '',
    REDIS_URL: '',
    LOYALTY_ENGINE_URL: '',
    LOG_LEVEL: 'silent',
  });
}, 180_000);
afterAll(async () => {
  await gateway?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("onboarding from nothing with the packaged CLI, exactly as docs/operators.md's runbook says", () => {
  it('runs from its own package: --help, and an admin call with GATEWAY_URL and GATEWAY_ADMIN_TOKEN', async () => {
    expect((await step('npx loyalty-gateway --help')).out).toContain('loyalty-gateway <command> [flags]');
    expect((await step('npx loyalty-gateway admin vendors list')).code).toBe(0);
  });

  it('a generic vendor, a merchant with an outlet, a connection; a signed sale earns and certification passes', async () => {
    expect((await step('npx loyalty-gateway admin vendors create acme-pos --name "Acme POS"')).code).toBe(0);
    expect(
      (
        await step(
          'npx loyalty-gateway admin merchants create m-bean --name "Bean There" --currency USD --country-code 1 --earn-rate 1 --redemption-rate 100',
        )
      ).code,
    ).toBe(0);
    expect((await step('npx loyalty-gateway admin merchants add-outlet m-bean --id o-downtown --name Downtown')).code).toBe(0);
    const created = await step(
      'npx loyalty-gateway admin connections create --vendor acme-pos --store till-001 --merchant m-bean --outlet o-downtown',
    );
    expect(created.code, created.out).toBe(0);
    const secret = /^secret: (\S+)$/m.exec(created.out)![1]!;
    const sale = await step(`npx loyalty-gateway send-sample --vendor acme-pos --store till-001 --secret ${secret}`, {
      '<secret>': secret,
    });
    expect(sale).toMatchObject({ code: 0, out: expect.stringMatching(/^HTTP 200/) });
    expect(sale.out).toContain('"status": "processed"');
    const certified = await step(`npx loyalty-gateway certify --vendor acme-pos --store till-001 --secret ${secret}`, {
      '<secret>': secret,
    });
    expect(certified.code, certified.out).toBe(0);
  });

  it('a featured vendor promoted, a store connected, and a native delivery signed as the vendor signs it earns', async () => {
    expect((await step('npx loyalty-gateway admin vendors promote woocommerce')).out).toMatch(/tier: featured/);
    const created = await step(
      'npx loyalty-gateway admin connections create --vendor woocommerce --store https://shop.example.com/ --merchant m-bean --outlet o-downtown',
    );
    expect(created.code, created.out).toBe(0);
    const secret = /^secret: (\S+)$/m.exec(created.out)![1]!;
    const delivered = await step(
      `npx loyalty-gateway send --path /webhooks/woocommerce --secret ${secret} --file adapters/woocommerce/src/fixtures/order-727.json --header 'X-WC-Webhook-Source: https://shop.example.com/' --header 'X-WC-Webhook-Topic: order.updated'`,
      { '<secret>': secret },
    );
    expect(delivered.code, delivered.out).toBe(0);
    expect(delivered.out).toMatch(/"transactionId": "727",\s+"status": "processed"/);
    const listed = await step('npx loyalty-gateway admin connections list --vendor woocommerce');
    expect(listed.out).toMatch(/https:\/\/shop\.example\.com\/ +yes +m-bean \/ o-downtown/);
  });
});
