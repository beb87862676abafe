import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../config.js';
import { startGateway } from '../start-gateway.js';
import { ADMIN_TOKEN_FILE, adminBanner } from './development-admin-token.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'lg-admin-token-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const base = {
  PORT: '0',
  HOST: '127.0.0.1',
  DATABASE_URL: '',
  REDIS_URL: '',
  LOYALTY_ENGINE_URL: '',
  GATEWAY_SEED_FILE: '',
  GATEWAY_ADMIN_TOKEN: '',
  GATEWAY_SCHEDULER: 'off',
  LOG_LEVEL: 'silent',
};
const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

/** Signs in to the console with `token` as a person's browser would; the console's first page as seen after the redirect. */
async function consoleSignIn(url: string, token: string): Promise<{ signIn: number; page: number }> {
  const signIn = await fetch(`${url}/console/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token }).toString(),
    redirect: 'manual',
  });
  const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0]!;
  const page = await fetch(`${url}/console`, { headers: { cookie }, redirect: 'manual' });
  return { signIn: signIn.status, page: page.status };
}

describe('development: admin, console and metrics on from the first start', () => {
  const dataDir = path.join(dir, 'development');

  it('a fresh data dir: a token is generated into admin-token (0600), and /admin, /console and /metrics answer with it', async () => {
    const gw = await startGateway({ ...base, GATEWAY_ENV: 'development', GATEWAY_DATA_DIR: dataDir });
    try {
      const file = path.join(dataDir, ADMIN_TOKEN_FILE);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const token = readFileSync(file, 'utf8').trim();
      expect(token).toMatch(/^adm_[A-Za-z0-9_-]{32}$/);
      expect((await fetch(`${gw.address}/admin/vendors`, bearer(token))).status).toBe(200);
      expect((await fetch(`${gw.address}/admin/vendors`)).status).toBe(401);
      expect(await consoleSignIn(gw.address, token)).toEqual({ signIn: 303, page: 200 });
      const metrics = await fetch(`${gw.address}/metrics`, bearer(token));
      expect(metrics.status).toBe(200);
      expect(await metrics.text()).toContain('gateway_requests_total');
      // The demo sandbox is still made on this first start (the token file is written after the data dir was judged empty).
      expect(existsSync(path.join(dataDir, 'demo-credentials.json'))).toBe(true);
    } finally {
      await gw.close();
    }
  });

  it('a second start reuses the token: the file is unchanged and still signs in', async () => {
    const file = path.join(dataDir, ADMIN_TOKEN_FILE);
    const before = readFileSync(file, 'utf8');
    const gw = await startGateway({ ...base, GATEWAY_ENV: 'development', GATEWAY_DATA_DIR: dataDir });
    try {
      expect(readFileSync(file, 'utf8')).toBe(before);
      expect((await fetch(`${gw.address}/admin/vendors`, bearer(before.trim()))).status).toBe(200);
    } finally {
      await gw.close();
    }
  });

  it('GATEWAY_ADMIN_TOKEN set in development: that token, and no file is written', async () => {
    const token = 'dev-explicit-admin-token-0123456789';
    const explicitDir = path.join(dir, 'explicit');
    const gw = await startGateway({ ...base, GATEWAY_ENV: 'development', GATEWAY_DATA_DIR: explicitDir, GATEWAY_ADMIN_TOKEN: token });
    try {
      expect(existsSync(path.join(explicitDir, ADMIN_TOKEN_FILE))).toBe(false);
      expect((await fetch(`${gw.address}/admin/vendors`, bearer(token))).status).toBe(200);
    } finally {
      await gw.close();
    }
  });

  it('a token file that holds no usable token stops the start, saying to delete it', async () => {
    const { writeFileSync, mkdirSync } = await import('node:fs');
    const badDir = path.join(dir, 'bad');
    mkdirSync(badDir, { mode: 0o700 });
    writeFileSync(path.join(badDir, ADMIN_TOKEN_FILE), 'short\n', { mode: 0o600 });
    await expect(startGateway({ ...base, GATEWAY_ENV: 'development', GATEWAY_DATA_DIR: badDir })).rejects.toThrow(
      /admin-token does not hold an admin token of at least 24 characters; delete it/,
    );
  });
});

describe('uat, beta and production are unchanged: an admin token only when one is configured', () => {
  it('uat without GATEWAY_ADMIN_TOKEN: no token generated, /admin, /console and /metrics answer 404', async () => {
    const dataDir = path.join(dir, 'uat');
    const gw = await startGateway({ ...base, GATEWAY_ENV: 'uat', GATEWAY_DATA_DIR: dataDir });
    try {
      expect(existsSync(path.join(dataDir, ADMIN_TOKEN_FILE))).toBe(false);
      for (const route of ['/admin/vendors', '/console/sign-in', '/metrics'])
        expect([route, (await fetch(`${gw.address}${route}`)).status]).toEqual([route, 404]);
    } finally {
      await gw.close();
    }
  });

  it('production without GATEWAY_ADMIN_TOKEN does not start, and writes no token', async () => {
    const dataDir = path.join(dir, 'production');
    const start = startGateway({ ...base, GATEWAY_ENV: 'production', GATEWAY_DATA_DIR: dataDir, GATEWAY_MASTER_KEY: 'a'.repeat(64) });
    await expect(start).rejects.toThrow(ConfigError);
    await expect(start).rejects.toThrow(/GATEWAY_ADMIN_TOKEN.*is required in production/);
    expect(existsSync(path.join(dataDir, ADMIN_TOKEN_FILE))).toBe(false);
  });
});

describe('the start-up lines', () => {
  it('a development token: where the console is, the token and its file, and a CLI command that uses it', () => {
    expect(adminBanner({ token: 'adm_x'.padEnd(30, 'x'), file: '/d/admin-token' }, 'http://127.0.0.1:3000')).toEqual([
      `Admin: console http://127.0.0.1:3000/console, admin API http://127.0.0.1:3000/admin, metrics http://127.0.0.1:3000/metrics; admin token ${'adm_x'.padEnd(30, 'x')} (also in admin-token in the data dir)`,
      `Use the admin CLI: GATEWAY_ADMIN_TOKEN=${'adm_x'.padEnd(30, 'x')} npm run cli -- admin vendors list --url http://127.0.0.1:3000`,
    ]);
  });

  it('a configured token is never printed', () => {
    const lines = adminBanner({ token: 'configured-secret-token-0123456789', file: null }, 'http://127.0.0.1:3000');
    expect(lines.join('\n')).not.toContain('configured-secret-token');
    expect(lines).toEqual([
      'Admin: console http://127.0.0.1:3000/console, admin API http://127.0.0.1:3000/admin, metrics http://127.0.0.1:3000/metrics (sign in with GATEWAY_ADMIN_TOKEN)',
    ]);
  });
});
