import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { signedHeaders } from '@loyalty-gateway/core';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_CREDENTIALS_FILE, type DemoCredentials } from './boot/demo.js';
import { startGateway } from './start-gateway.js';
import { testSeedDocument } from './testing/test-seed.js';
import { gatewayCommand } from './testing/spawn-gateway.js';
import { ENGINE_WORKER_LIMITS, JOURNAL_WORKER_LIMITS, MAIN_SEMI_SPACE_MB, MAIN_WORKING_SET_MB } from './memory/memory-bounds.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'lg-start-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const base = { PORT: '0', HOST: '127.0.0.1', DATABASE_URL: '', REDIS_URL: '', LOG_LEVEL: 'silent' };

async function sendSample(url: string, credentials: { vendor: string; storeId: string; secret: string }) {
  const body = JSON.stringify({
    eventId: `e-${Date.now()}`,
    eventType: 'sale.completed',
    occurredAt: new Date().toISOString(),
    store: { id: credentials.storeId },
    transaction: {
      id: `t-${Date.now()}-${Math.random()}`,
      total: 9.99,
      currency: 'USD',
      customer: { type: 'membershipId', value: 'MBR-DEMO-0001' },
      items: [{ name: 'Latte (coffee)', sku: 'COF-LATTE', quantity: 1, unitPrice: 9.99 }],
    },
  });
  const headers = {
    'content-type': 'application/json',
    ...signedHeaders({ vendor: credentials.vendor, store: credentials.storeId, secret: credentials.secret, body }),
  };
  const response = await fetch(`${url}/webhooks/generic`, { method: 'POST', headers, body });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('startGateway', () => {
  it('development, empty data dir: demo sandbox seeded, credentials kept (0600) and reused on restart', async () => {
    const dataDir = path.join(dir, 'dev');
    const first = await startGateway({ ...base, GATEWAY_DATA_DIR: dataDir });
    let credentials: DemoCredentials;
    try {
      const file = path.join(dataDir, DEMO_CREDENTIALS_FILE);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      credentials = JSON.parse(readFileSync(file, 'utf8'));
      expect(credentials).toMatchObject({ vendor: 'demo-pos', storeId: 'demo-store-001' });
      const sale = await sendSample(first.address, credentials);
      expect(sale).toMatchObject({ status: 200, body: { status: 'processed', membershipId: 'MBR-DEMO-0001', pointsEarned: 9 } });
      expect((await fetch(`${first.address}/health`)).status).toBe(200);
    } finally {
      await first.close();
    }
    const second = await startGateway({ ...base, GATEWAY_DATA_DIR: dataDir });
    try {
      expect(JSON.parse(readFileSync(path.join(dataDir, DEMO_CREDENTIALS_FILE), 'utf8'))).toEqual(credentials);
      expect((await sendSample(second.address, credentials)).status).toBe(200);
    } finally {
      await second.close();
    }
  });

  it('no demo outside development, nor on a data dir that is not empty', async () => {
    const uat = path.join(dir, 'uat');
    const gw = await startGateway({ ...base, GATEWAY_ENV: 'uat', GATEWAY_DATA_DIR: uat });
    await gw.close();
    expect(() => statSync(path.join(uat, DEMO_CREDENTIALS_FILE))).toThrow();
    const dev = await startGateway({ ...base, GATEWAY_DATA_DIR: uat });
    await dev.close();
    expect(() => statSync(path.join(uat, DEMO_CREDENTIALS_FILE))).toThrow();
  });

  it('applies GATEWAY_SEED_FILE; an invalid one stops start-up naming the file', async () => {
    const seedFile = path.join(dir, 'seed.json');
    writeFileSync(seedFile, JSON.stringify(testSeedDocument()));
    const env = { ...base, GATEWAY_ENV: 'uat', GATEWAY_DATA_DIR: path.join(dir, 'seeded'), GATEWAY_SEED_FILE: seedFile };
    const gw = await startGateway(env);
    try {
      const sale = await sendSample(gw.address, {
        vendor: 'acme-pos',
        storeId: 'store-001',
        secret: testSeedDocument().merchants[0]!.connections[0]!.secret!,
      });
      expect(sale.status).toBe(200);
    } finally {
      await gw.close();
    }
    const bad = path.join(dir, 'bad-seed.json');
    writeFileSync(bad, JSON.stringify({ vendors: [{ slug: 'Bad Slug', name: 'x', tier: 'generic' }] }));
    await expect(startGateway({ ...env, GATEWAY_SEED_FILE: bad })).rejects.toThrow(new RegExp(`${bad}[\\s\\S]*vendors\\[0\\]\\.slug`));
  });

  it('a bad environment stops start-up naming the variable', async () => {
    await expect(startGateway({ ...base, GATEWAY_RATE_LIMIT: '0' })).rejects.toThrow(/GATEWAY_RATE_LIMIT/);
  });
});

const root = path.resolve(import.meta.dirname, '../..');
const compiled = process.env.GATEWAY_TEST_COMPILED === '1';

/**
 * A gateway process as `npm start` or (GATEWAY_TEST_COMPILED=1) `npm run start:prod` runs it, with
 * `nodeFlags` before its entry when given (plain node, no launcher): its output until it is ready
 * (SIGTERM then) or has exited, and its exit code.
 */
function runGateway(extraEnv: Record<string, string>, nodeFlags: string[] = []) {
  const launch = gatewayCommand();
  const [command, args] =
    nodeFlags.length === 0
      ? [launch.command, launch.args]
      : [process.execPath, [...nodeFlags, ...(compiled ? ['gateway/dist/main.js'] : launch.args)]];
  const env = {
    ...process.env,
    ...base,
    LOG_LEVEL: 'info',
    GATEWAY_ENV: 'uat',
    GATEWAY_DATA_DIR: mkdtempSync(path.join(dir, 'memory-')),
    GATEWAY_MASTER_KEY: Buffer.alloc(32, 3).toString('base64'),
    ...launch.env,
    ...extraEnv,
  };
  const child = spawn(command, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const collect = (chunk: Buffer) => {
    out += chunk.toString();
    if (/gateway ready on/.test(out) && /delivery journal writer (thread started|started on)|ledger checkpoint thread started/.test(out))
      child.kill('SIGTERM');
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  type Line = { msg: string; heapLimitMb?: number; checkpointsLedger?: boolean };
  return new Promise<{
    code: number | null;
    out: string;
    heapLimitMb: (msg: string) => number | undefined;
    line: (msg: string) => Line | undefined;
  }>((resolve) =>
    child.once('exit', (code) => {
      const line = (msg: string) =>
        out
          .split('\n')
          .filter((text) => text.startsWith('{'))
          .map((text) => JSON.parse(text) as Line)
          .find((parsed) => parsed.msg === msg);
      resolve({ code, out, heapLimitMb: (msg) => line(msg)?.heapLimitMb, line });
    }),
  );
}

describe('the memory bounds of a gateway process', () => {
  it('each thread runs within its bound: the worker threads their resourceLimits; the production start bounds the main heap, whatever GATEWAY_IDEMPOTENCY_CACHE_MB', async () => {
    for (const cache of [32, 64]) {
      const run = await runGateway({ GATEWAY_IDEMPOTENCY_CACHE_MB: String(cache) });
      expect(run.out).toMatch(/gateway ready on/);
      // V8's heap limit is the old generation plus the young one (3 semi-spaces).
      expect(run.heapLimitMb('loyalty engine thread started')).toBe(
        ENGINE_WORKER_LIMITS.maxOldGenerationSizeMb + ENGINE_WORKER_LIMITS.maxYoungGenerationSizeMb,
      );
      expect(run.heapLimitMb('delivery journal writer thread started')).toBe(
        JOURNAL_WORKER_LIMITS.maxOldGenerationSizeMb + JOURNAL_WORKER_LIMITS.maxYoungGenerationSizeMb,
      );
      // On its own thread the writer also checkpoints the embedded engine's ledger in the background.
      expect(run.line('delivery journal writer thread started')?.checkpointsLedger).toBe(true);
      expect(run.out).not.toMatch(/ledger checkpoint thread started/);
      // `npm start` (tsx) leaves the main thread's heap to node's default; the production start bounds it.
      // The idempotency cache is outside V8's heap: its bound does not move the heap's.
      if (compiled) expect(run.heapLimitMb('main thread heap limit')).toBe(MAIN_WORKING_SET_MB + 3 * MAIN_SEMI_SPACE_MB);
    }
    // GATEWAY_JOURNAL_WRITER=engine: the writer runs on the engine's thread (no thread of its own), within that thread's bound.
    const hosted = await runGateway({ GATEWAY_JOURNAL_WRITER: 'engine' });
    expect(hosted.heapLimitMb("delivery journal writer started on the loyalty engine's thread"), hosted.out).toBe(
      ENGINE_WORKER_LIMITS.maxOldGenerationSizeMb + ENGINE_WORKER_LIMITS.maxYoungGenerationSizeMb,
    );
    // Hosted there, it leaves the ledger's checkpoints to the engine (on its thread they would hold the engine as its own do).
    expect(hosted.line("delivery journal writer started on the loyalty engine's thread")?.checkpointsLedger).toBe(false);
    // With the engine as a service there is no engine thread to host it: a thread of its own, whatever the setting.
    const remote = await runGateway({
      GATEWAY_JOURNAL_WRITER: 'engine',
      LOYALTY_ENGINE_URL: 'http://127.0.0.1:9',
      LOYALTY_ENGINE_TOKEN: 'x'.repeat(32),
    });
    expect(remote.heapLimitMb('delivery journal writer thread started'), remote.out).toBe(
      JOURNAL_WORKER_LIMITS.maxOldGenerationSizeMb + JOURNAL_WORKER_LIMITS.maxYoungGenerationSizeMb,
    );
    // No ledger in this process to checkpoint.
    expect(remote.line('delivery journal writer thread started')?.checkpointsLedger).toBe(false);
    // The journal off: no writer thread, but the ledger's checkpoints keep a thread of their own, off the engine's.
    const journalOff = await runGateway({ GATEWAY_JOURNAL_DAYS: '0' });
    expect(journalOff.out).not.toMatch(/delivery journal writer/);
    expect(
      journalOff.heapLimitMb('ledger checkpoint thread started (the delivery journal is off: no writer thread to run them)'),
      journalOff.out,
    ).toBe(JOURNAL_WORKER_LIMITS.maxOldGenerationSizeMb + JOURNAL_WORKER_LIMITS.maxYoungGenerationSizeMb);
  }, 60_000);

  it('GATEWAY_HEAP_MB, or a --max-old-space-size, too small for the working set stops the boot with a ConfigError', async () => {
    const setting = await runGateway({ GATEWAY_HEAP_MB: '24' });
    expect(setting.code, setting.out).toBe(1);
    expect(setting.out).toMatch(/Invalid configuration:\n {2}GATEWAY_HEAP_MB: must be at least 32 \(MiB\)/);
    // A heap below the working set's 32 MiB: the compiled build boots that far; tsx's TypeScript
    // loader alone needs more than that heap, so under `npm start` node runs out before the check.
    if (!compiled) return;
    const flag = await runGateway({}, ['--max-old-space-size=24', '--max-semi-space-size=1']);
    expect(flag.code, flag.out).toBe(1);
    expect(flag.out).toMatch(/the main thread's heap limit of \d+ MiB .* is below the gateway's working set: it needs at least 32 \(MiB\)/);
    expect(flag.out).not.toMatch(/gateway ready on/);
  }, 60_000);
});
