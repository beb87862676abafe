import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { AUTOVACUUM_OFF } from '@loyalty-gateway/storage';
import { canRunThrowawayPostgres, startThrowawayPostgres } from '@loyalty-gateway/storage/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ANN, SCOPE, testSeed } from '../testing/fixture.js';
import { startEngineService } from './start-engine-service.js';

describe('startEngineService', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'engine-svc-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('boots from the environment with a SQLite file and a seed file, listens, and closes', async () => {
    const seedFile = join(dir, 'seed.json');
    await writeFile(seedFile, JSON.stringify({ vendors: [], ...testSeed() }));
    const env = {
      ENGINE_PORT: '0',
      ENGINE_DATA_DIR: join(dir, 'data'),
      ENGINE_SEED_FILE: seedFile,
      ENGINE_TOKEN: 'a-long-enough-token',
      LOG_LEVEL: 'silent',
    };
    const running = await startEngineService(env);
    const headers = { authorization: 'Bearer a-long-enough-token', 'content-type': 'application/json' };
    expect((await fetch(`${running.address}/health`)).status).toBe(200);
    const reply = await fetch(`${running.address}/v1/eligibility`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ ...SCOPE, customer: ANN }),
    });
    expect(await reply.json()).toMatchObject({ membershipId: 'MBR-0001', walletBalance: 1200 });
    await running.close();
    await expect(fetch(`${running.address}/health`)).rejects.toThrow();
    const again = await startEngineService(env);
    const replay = await fetch(`${again.address}/v1/eligibility`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ ...SCOPE, customer: ANN }),
    });
    expect(await replay.json()).toMatchObject({ walletBalance: 1200 });
    await again.close();
  });

  it('refuses a bad seed file before opening anything', async () => {
    const seedFile = join(dir, 'seed.json');
    await writeFile(seedFile, '{"merchants": [{"id": 1}]}');
    await expect(startEngineService({ ENGINE_PORT: '0', ENGINE_DATA_DIR: join(dir, 'data'), ENGINE_SEED_FILE: seedFile })).rejects.toThrow(
      /ENGINE_SEED_FILE is invalid/,
    );
  });

  /** The service's log lines at `warn` and above, from its start to its close. */
  const warningsAtStart = async (env: Record<string, string>) => {
    const lines: string[] = [];
    const logStream = new PassThrough().on('data', (chunk: Buffer) => lines.push(...chunk.toString().split('\n').filter(Boolean)));
    const running = await startEngineService(
      { ENGINE_PORT: '0', ENGINE_DATA_DIR: join(dir, 'data'), LOG_LEVEL: 'warn', ...env },
      { logStream },
    );
    await running.close();
    return lines.map((line) => (JSON.parse(line) as { msg: string }).msg);
  };

  it('warns at start when ENGINE_TOKEN is not set, and only then', async () => {
    expect(await warningsAtStart({})).toEqual(['ENGINE_TOKEN is not set: the engine service accepts unauthenticated requests']);
    expect(await warningsAtStart({ ENGINE_TOKEN: 'a-long-enough-token' })).toEqual([]);
  });

  it.skipIf(!canRunThrowawayPostgres())(
    "on PostgreSQL, warns at start when the server's autovacuum is off, as the gateway does",
    async () => {
      for (const [settings, warnings] of [
        [{ autovacuum: 'off' }, [AUTOVACUUM_OFF]],
        [{}, []],
      ] as const) {
        const server = await startThrowawayPostgres(settings);
        try {
          expect(await warningsAtStart({ DATABASE_URL: server.url, ENGINE_TOKEN: 'a-long-enough-token' })).toEqual(warnings);
        } finally {
          server.destroy();
        }
      }
    },
    60_000,
  );
});
