import { randomBytes } from 'node:crypto';
import { createHttpClient } from '@loyalty-gateway/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CatalogRunStore } from '../stores/index.js';
import { createCatalogRunner } from './catalog-runner.js';
import { CLOVER_MERCHANT, openProcess, quietLogger, seed, sharedDatabase, type CatalogProcess } from '../testing/catalog-world.js';
import { startCloverItemsServer, type CloverItemsServer } from '../testing/clover-items-server.js';

describe('a catalog run whose outcome cannot be recorded', () => {
  let server: CloverItemsServer;
  let shared: Awaited<ReturnType<typeof sharedDatabase>>;
  let a: CatalogProcess;
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => void unhandled.push(reason);

  beforeEach(async () => {
    server = await startCloverItemsServer(CLOVER_MERCHANT, 3);
    shared = await sharedDatabase('sqlite');
    a = await openProcess(shared.open(), randomBytes(32));
    await seed(a, server.baseUrl);
    unhandled.length = 0;
    process.on('unhandledRejection', onUnhandled);
  });
  afterEach(async () => {
    process.off('unhandledRejection', onUnhandled);
    await a.runner.stop();
    await shared.close();
    await server.close();
  });

  it('resolves failed (done never rejects) instead of an unhandled rejection when the run store fails on finish', async () => {
    // The database goes away between claim and finish (lost connection, disk full…).
    const runs: CatalogRunStore = {
      ...a.runs,
      finish: async () => {
        throw new Error('database unavailable');
      },
    };
    const runner = createCatalogRunner({
      store: a.store,
      runs,
      engine: a.engine,
      adapters: (await import('../adapters.js')).adapters,
      logger: quietLogger(),
      http: createHttpClient({ timeoutMs: 2_000, baseDelayMs: 10 }),
    });
    const connectionId = (await a.store.listConnections({ vendor: 'clover' }))[0]!.id;
    const started = await runner.start('clover', connectionId, 'manual'); // the admin route does not await `done`
    expect(started).not.toBeNull();
    const finished = await started!.done;
    expect(finished).toMatchObject({ id: started!.run.id, status: 'failed', error: expect.stringContaining('database unavailable') });
    await runner.stop();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(unhandled).toEqual([]);
  });
});
