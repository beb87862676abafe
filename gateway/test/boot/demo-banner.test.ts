import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { exited, gatewayCommand } from '../../src/testing/spawn-gateway.js';
import { DEMO_CREDENTIALS_FILE, type DemoCredentials } from '../../src/boot/demo.js';
import { ADMIN_TOKEN_FILE } from '../../src/boot/development-admin-token.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const dir = mkdtempSync(path.join(os.tmpdir(), 'lg-banner-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `npm start` in development on an empty data dir; resolves with its log lines once the send command is printed. */
function startDevGateway(dataDir: string) {
  const env = {
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    GATEWAY_ENV: 'development',
    GATEWAY_DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    GATEWAY_SEED_FILE: '',
    DATABASE_URL: '',
    REDIS_URL: '',
    LOYALTY_ENGINE_URL: '',
    GATEWAY_MASTER_KEY: '',
  };
  const { command, args, env: launcherEnv } = gatewayCommand();
  const child = spawn(command, args, { cwd: root, env: { ...env, ...launcherEnv }, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise<{ child: typeof child; lines: Array<{ msg: string; level: number }> }>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`no send command printed:\n${out}`)), 30_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      if (!/Send a signed sample sale: .*\n/.test(out)) return;
      clearTimeout(timer);
      const lines = out
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as { msg: string; level: number });
      resolve({ child, lines });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`gateway exited with ${code}:\n${out}`)));
  });
}

describe('development start-up log', () => {
  it('prints the demo vendor, store and secret, and a send command that works as printed; the admin token with the console URL, and an admin command that works as printed', async () => {
    const dataDir = path.join(dir, 'data');
    const { child, lines } = await startDevGateway(dataDir);
    try {
      const credentials = JSON.parse(readFileSync(path.join(dataDir, DEMO_CREDENTIALS_FILE), 'utf8')) as DemoCredentials;
      const ready = lines.find((l) => l.msg.startsWith('gateway ready on '));
      const url = /gateway ready on (\S+)/.exec(ready!.msg)![1]!;
      const banner = lines.find((l) => l.msg.startsWith('Demo sandbox:'));
      expect(banner?.level).toBe(30);
      expect(banner!.msg).toBe(
        `Demo sandbox: vendor demo-pos, store demo-store-001, secret ${credentials.secret} (also in ${DEMO_CREDENTIALS_FILE} in the data dir)`,
      );
      expect(credentials.secret).toMatch(/^whsec_[A-Za-z0-9_-]{32}$/);
      const send = lines.find((l) => l.msg.startsWith('Send a signed sample sale: '))!.msg.slice('Send a signed sample sale: '.length);
      expect(send).toBe(
        `npm run cli -- send-sample --url ${url} --vendor demo-pos --store demo-store-001 --secret ${credentials.secret} --customer membershipId:MBR-DEMO-0001`,
      );
      // Run it as printed (from the repository root, as the README says); npm prints its own header first.
      const [command, ...args] = send.split(' ');
      const result = await promisify(execFile)(command!, args, { cwd: root, env: process.env });
      const answer = result.stdout.slice(result.stdout.indexOf('HTTP '));
      expect(answer).toMatch(/^HTTP 200 /);
      expect(JSON.parse(answer.slice(answer.indexOf('{')))).toMatchObject({ status: 'processed', membershipId: 'MBR-DEMO-0001' });
      // The admin side is on, its token printed with where the console is, and the printed CLI command works as printed.
      const token = readFileSync(path.join(dataDir, ADMIN_TOKEN_FILE), 'utf8').trim();
      expect(lines.find((l) => l.msg.startsWith('Admin: '))?.msg).toBe(
        `Admin: console ${url}/console, admin API ${url}/admin, metrics ${url}/metrics; admin token ${token} (also in ${ADMIN_TOKEN_FILE} in the data dir)`,
      );
      const cli = lines.find((l) => l.msg.startsWith('Use the admin CLI: '))!.msg.slice('Use the admin CLI: '.length);
      expect(cli).toBe(`GATEWAY_ADMIN_TOKEN=${token} npm run cli -- admin vendors list --url ${url}`);
      const vendors = await promisify(execFile)('sh', ['-c', cli], { cwd: root, env: process.env });
      expect(vendors.stdout).toMatch(/demo-pos +Demo POS +generic/);
    } finally {
      child.kill('SIGTERM');
      await exited(child);
    }
  }, 90_000);
});
