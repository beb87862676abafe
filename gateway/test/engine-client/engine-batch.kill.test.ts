import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { EngineUnavailableError, type EarnCommand } from '@loyalty-gateway/core';
import { ANN, SCOPE, sale, testSeed } from '@loyalty-gateway/engine/testing';
import { postgresUrlWithSchema, testDatabaseOptions, testDialects } from '@loyalty-gateway/storage/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpEngine, type HttpEngine } from '../../src/engine-client/create-http-engine.js';
import { failureKind } from '../../src/engine-client/engine-call-failure.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const TOKEN = 'kill-test-engine-token-0123456789';

/** `npm run engine` as a child process; resolves with its URL once it listens. */
function startEngineService(env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'engine/src/main.ts'], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const timer = setTimeout(() => reject(new Error(`engine service did not start:\n${out}`)), 30_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve({ child, url: match[1]! });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`engine service exited with ${code}:\n${out}`)));
  });
}

const exited = (child: ChildProcess) =>
  new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve(null) : child.once('exit', resolve)));

describe.each(testDialects())('the engine service killed mid-batch on $name', ({ name }) => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  it('concurrent batched earns, the service killed with SIGKILL and restarted on the same data: every sale lands exactly once', async () => {
    const database = await testDatabaseOptions(name);
    cleanups.push(() => database.dispose());
    const dir = mkdtempSync(path.join(os.tmpdir(), 'lg-engine-kill-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const seedFile = path.join(dir, 'seed.json');
    writeFileSync(seedFile, JSON.stringify(testSeed()));
    const { options } = database;
    const env: Record<string, string> = {
      ENGINE_HOST: '127.0.0.1',
      ENGINE_PORT: '0',
      ENGINE_TOKEN: TOKEN,
      ENGINE_SEED_FILE: seedFile,
      LOG_LEVEL: 'info', // its "listening at" line tells the test where it listens
      ...('postgresUrl' in options && options.postgresUrl
        ? { DATABASE_URL: postgresUrlWithSchema(options.postgresUrl, options.postgresSchema!), ENGINE_DATA_DIR: dir }
        : { DATABASE_URL: '', ENGINE_DATA_DIR: path.dirname((options as { sqliteFile: string }).sqliteFile) }),
    };
    let service = await startEngineService(env);
    cleanups.push(async () => {
      service.child.kill('SIGKILL');
      await exited(service.child);
    });
    const port = new URL(service.url).port;
    const client: HttpEngine = createHttpEngine({
      url: service.url,
      token: TOKEN,
      timeoutMs: 2_000,
      breaker: { failureThreshold: 1_000_000 },
    });
    cleanups.push(() => client.close());

    const commands: EarnCommand[] = Array.from({ length: 400 }, (_, i) => sale({ id: `KILL-${name}-${i}`, totalMinor: 100 }));
    const answers = new Map<number, string>();
    const failures: string[] = [];
    const queue = commands.map((_, i) => i);
    let killed = false;
    let restarted = false;
    // 40 vendors at once: each sends its next sale when its last was answered; a sale that got no
    // answer goes back in the queue, as the vendor's retry (the same event).
    const vendor = async () => {
      while (queue.length > 0 || answers.size < commands.length) {
        const i = queue.shift();
        if (i === undefined) {
          await sleep(5);
          continue;
        }
        try {
          const outcome = await client.earn(commands[i]!);
          answers.set(i, outcome.status);
        } catch (error) {
          expect(error).toBeInstanceOf(EngineUnavailableError);
          failures.push(failureKind(error)!);
          queue.push(i);
          await sleep(20);
        }
        if (!killed && answers.size >= 120) {
          killed = true;
          service.child.kill('SIGKILL');
          void exited(service.child).then(async () => {
            service = await startEngineService({ ...env, ENGINE_PORT: port });
            restarted = true;
          });
        }
      }
    };
    await Promise.all(Array.from({ length: 40 }, vendor));

    expect(killed && restarted).toBe(true);
    // Calls were out when the process died (reset) or sent while it was down (refused).
    expect(failures.length).toBeGreaterThan(0);
    expect(failures.every((kind) => kind === 'connection' || kind === 'timeout')).toBe(true);
    expect(answers.size).toBe(400);
    const statuses = [...answers.values()];
    expect(statuses.every((status) => status === 'processed' || status === 'duplicate')).toBe(true);
    // One point per sale, credited once each whatever the answers said: 400 over the seed's 1,200.
    expect((await client.eligibility({ ...SCOPE, customer: ANN })).walletBalance).toBe(1200 + 400);
    // And every sale's retry now is a duplicate: each is in the ledger once.
    const again = await Promise.all(commands.map((command) => client.earn({ ...command, eventId: `${command.eventId}-again` })));
    expect(again.every((outcome) => outcome.status === 'duplicate')).toBe(true);
  }, 90_000);
});
