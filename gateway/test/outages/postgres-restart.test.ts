import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ErrorBody } from '@loyalty-gateway/core';
import pg from 'pg';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { headersFor } from '../../src/testing/gateway-fixture.js';
import { exited, spawnGateway, type SpawnedGateway } from '../../src/testing/spawn-gateway.js';
import { sale, testSeedDocument } from '../../src/testing/test-seed.js';
import { canRunThrowawayPostgres, startThrowawayPostgres, type ThrowawayPostgres } from '@loyalty-gateway/storage/testing';

/**
 * A PostgreSQL restart (failover, upgrade, an idle-connection reaper) under a load of distinct
 * sales: the gateway process stays up, answers the window with a retryable 5xx in the spec's Error
 * body with Retry-After, and serves again by itself once the database is back. Every sale answered
 * 200 is in the ledger exactly once. Runs on a PostgreSQL cluster of its own, never the shared one.
 */
describe.skipIf(!canRunThrowawayPostgres())('PostgreSQL restarted under load', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lg-pgrestart-'));
  let database: ThrowawayPostgres;
  let gateway: SpawnedGateway;
  beforeAll(async () => {
    database = await startThrowawayPostgres();
    const seedFile = path.join(dir, 'seed.json');
    writeFileSync(seedFile, JSON.stringify(testSeedDocument()));
    gateway = await spawnGateway({
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      GATEWAY_ENV: 'uat',
      GATEWAY_DATA_DIR: path.join(dir, 'data'),
      GATEWAY_SEED_FILE: seedFile,
      GATEWAY_MASTER_KEY: Buffer.alloc(32, 3).toString('base64'),
      DATABASE_URL: database.url,
      REDIS_URL: '',
      LOYALTY_ENGINE_URL: '',
      GATEWAY_RATE_LIMIT: '1000000',
      GATEWAY_SCHEDULER: 'off',
      LOG_LEVEL: 'info',
    });
  }, 60_000);
  afterAll(async () => {
    if (gateway && gateway.child.exitCode === null) {
      gateway.child.kill('SIGTERM');
      await exited(gateway.child);
    }
    database?.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('the process survives, the window is answered 5xx + Retry-After (Error body), and it recovers by itself; nothing acknowledged is lost or doubled', async () => {
    const agent = new Agent({ connections: 8 });
    const send = async (id: string) => {
      const body = JSON.stringify(sale({ id, total: 1 }));
      const response = await request(`${gateway.url}/webhooks/generic`, {
        method: 'POST',
        headers: headersFor(body),
        body,
        dispatcher: agent,
      });
      return { id, status: response.statusCode, retryAfter: response.headers['retry-after'], body: await response.body.text() };
    };
    const answers: Array<Awaited<ReturnType<typeof send>>> = [];
    let n = 0;
    let stopAt = Number.POSITIVE_INFINITY;
    const worker = async () => {
      while (Date.now() < stopAt) answers.push(await send(`PGR-${n++}`));
    };
    const load = Promise.all(Array.from({ length: 8 }, worker));
    while (answers.filter((a) => a.status === 200).length < 100) await new Promise((r) => setTimeout(r, 20));
    await database.restart();
    stopAt = Date.now() + 2_000;
    await load;

    expect(gateway.child.exitCode).toBeNull();
    // The restart did hit requests in flight (8 clients, a restart takes about a second)...
    const failures = answers.filter((a) => a.status !== 200);
    expect(failures.length).toBeGreaterThan(0);
    // ...each a retryable 5xx in the spec's Error body: the engine's database (500
    // engine_unavailable_retry on the webhook) or the gateway's own (503 service_unavailable).
    expect(new Set(failures.map((f) => (JSON.parse(f.body) as { code: string }).code))).toSatisfy((codes: Set<string>) =>
      [...codes].every((c) => c === 'engine_unavailable_retry' || c === 'service_unavailable'),
    );
    for (const failed of answers.filter((a) => a.status !== 200)) {
      expect(failed.status, failed.body).toBeGreaterThanOrEqual(500);
      expect(failed.retryAfter).toMatch(/^\d+$/);
      expect(ErrorBody.parse(JSON.parse(failed.body)).statusCode).toBe(failed.status);
    }
    // Served again without a restart of the gateway.
    let recovered = await send('PGR-after');
    for (let i = 0; i < 50 && recovered.status !== 200; i += 1) {
      await new Promise((r) => setTimeout(r, 100));
      recovered = await send('PGR-after');
    }
    expect(recovered.status, recovered.body).toBe(200);

    // Every sale answered 200 is in the ledger exactly once.
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const acked = answers.filter((a) => a.status === 200).map((a) => a.id);
      const { rows } = await client.query(
        'select transaction_id, count(*)::int as n from sales where transaction_id = any($1) group by transaction_id',
        [acked],
      );
      expect(rows).toHaveLength(acked.length);
      expect(rows.every((r: { n: number }) => r.n === 1)).toBe(true);
    } finally {
      await client.end();
    }
    await agent.close();
  }, 90_000);
});
