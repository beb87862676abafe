// Not a form of openGateway: this starts the gateway as its own child process (npm start's entry, or the
// compiled build), for black-box suites of what operators run; openGateway assembles one in the test's process.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export interface SpawnedGateway {
  child: ChildProcess;
  url: string;
  /** Everything it wrote to stdout and stderr so far. */
  output(): string;
}

/**
 * How a gateway process is started: `npm start`'s TypeScript entry through tsx, or, when
 * GATEWAY_TEST_COMPILED=1 (CI sets it after `npm run build`), the production start
 * (`npm run start:prod`: gateway/bin/start, the compiled build with its heap flags), so the
 * black-box suites also run what operators run. Spawn `command` with `args` and `env`.
 */
export function gatewayCommand(): { command: string; args: string[]; env: Record<string, string> } {
  if (process.env.GATEWAY_TEST_COMPILED === '1') {
    const main = path.join(root, 'gateway/dist/main.js');
    if (!existsSync(main)) throw new Error('GATEWAY_TEST_COMPILED=1 but gateway/dist/main.js is missing: run `npm run build` first');
    // The launcher runs `node` from NODE (this one), not whichever is first on PATH.
    return { command: path.join(root, 'gateway/bin/start'), args: [], env: { NODE: process.execPath } };
  }
  return { command: process.execPath, args: ['--import', 'tsx', 'gateway/src/main.ts'], env: {} };
}

/** The gateway as a child process with the given environment; resolves with its base URL once it listens. */
export function spawnGateway(env: Record<string, string | undefined>): Promise<SpawnedGateway> {
  return new Promise((resolve, reject) => {
    const { command, args, env: launcherEnv } = gatewayCommand();
    const child = spawn(command, args, { cwd: root, env: { ...env, ...launcherEnv }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const timer = setTimeout(() => reject(new Error(`gateway did not start:\n${out}`)), 30_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const match = /gateway ready on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve({ child, url: match[1]!, output: () => out });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`gateway exited with ${code}:\n${out}`)));
  });
}

/** Resolves once the child has exited (at once if it already has). */
export const exited = (child: ChildProcess) =>
  new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve(null) : child.once('exit', resolve)));

/** SIGTERM and wait. */
export async function stopGateway(gateway: SpawnedGateway): Promise<void> {
  gateway.child.kill('SIGTERM');
  await exited(gateway.child);
}

/**
 * A data directory holding the test seed, and the environment of a gateway process on it (UAT,
 * SQLite under `dir/data`, no PostgreSQL, Redis or engine service), for tests that kill and
 * restart processes. The caller removes `dir` when done.
 */
export function sqliteGatewayFixture(prefix: string, seed: unknown, masterKeyByte: number) {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  const seedFile = path.join(dir, 'seed.json');
  writeFileSync(seedFile, JSON.stringify(seed));
  const env: Record<string, string | undefined> = {
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    GATEWAY_ENV: 'uat',
    GATEWAY_DATA_DIR: path.join(dir, 'data'),
    GATEWAY_SEED_FILE: seedFile,
    GATEWAY_MASTER_KEY: Buffer.alloc(32, masterKeyByte).toString('base64'),
    DATABASE_URL: '',
    REDIS_URL: '',
    LOYALTY_ENGINE_URL: '',
    GATEWAY_RATE_LIMIT: '1000000',
    LOG_LEVEL: 'info',
  };
  return { dir, env, engineFile: path.join(dir, 'data', 'engine.sqlite') };
}
