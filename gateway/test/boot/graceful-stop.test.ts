import { rmSync } from 'node:fs';
import path from 'node:path';
import { createDatabase } from '@loyalty-gateway/storage';
import { ErrorBody } from '@loyalty-gateway/core';
import { Agent, request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { parseSeed } from '../../src/boot/seed-schema.js';
import { TEST_ENGINE_TOKEN, openEngineService } from '../../src/testing/engine-service-harness.js';
import { headersFor } from '../../src/testing/gateway-fixture.js';
import { exited, spawnGateway, sqliteGatewayFixture } from '../../src/testing/spawn-gateway.js';
import { STORE, VENDOR, sale, testSeedDocument } from '../../src/testing/test-seed.js';
import { memberBalance } from '../../src/testing/member-balance.js';

const fixtures: string[] = [];
afterAll(() => fixtures.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/**
 * SIGTERM with a load running (docs/operators.md, "Running in production"): the gateway stops
 * accepting, answers every request it already received — a sale it took is earned and answered
 * 200; one it refuses while closing gets the spec's Error body with Retry-After, never a bare
 * 503 — then exits 0 within 10 s. Nothing answered 200 is lost and nothing unanswered is earned,
 * and the delivery journal holds one entry per answer (its last batch written before the exit).
 */
async function sigtermMidBurst(
  env: Record<string, string | undefined>,
  ledger: { before: number; balance: () => Promise<number> },
  dataDir: string,
) {
  const { before, balance } = ledger;
  const gateway = await spawnGateway(env);
  let log = '';
  gateway.child.stdout!.on('data', (chunk: Buffer) => (log += chunk.toString()));
  gateway.child.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const agent = new Agent({ connections: 16, pipelining: 1, keepAliveTimeout: 30_000 });
  const answers: Array<{ status: number; body: string; retryAfter: string | undefined }> = [];
  let networkErrors = 0;
  let stopAt = 0;
  let counter = 0;
  const worker = async () => {
    for (;;) {
      if (stopAt > 0 && Date.now() - stopAt > 3_000) return;
      const body = JSON.stringify(sale({ id: `STOP-${counter++}`, total: 1 }));
      try {
        const response = await request(`${gateway.url}/webhooks/generic`, {
          method: 'POST',
          headers: headersFor(body),
          body,
          dispatcher: agent,
        });
        answers.push({
          status: response.statusCode,
          body: await response.body.text(),
          retryAfter: response.headers['retry-after'] as string | undefined,
        });
        if (!stopAt && answers.filter((a) => a.status === 200).length >= 200) {
          stopAt = Date.now();
          gateway.child.kill('SIGTERM');
        }
      } catch {
        // Refused or closed before it was sent: never received, the vendor retries it.
        networkErrors += 1;
        if (stopAt > 0) return;
      }
    }
  };
  const exitedAt = exited(gateway.child).then(() => Date.now());
  await Promise.all(Array.from({ length: 16 }, worker));
  const exitTime = (await exitedAt) - stopAt;
  await agent.close();

  expect(stopAt).toBeGreaterThan(0);
  expect(
    gateway.child.exitCode,
    log
      .split('\n')
      .filter((l) => !l.includes('request completed'))
      .slice(-30)
      .join('\n'),
  ).toBe(0);
  expect(exitTime).toBeLessThan(10_000);
  const ok = answers.filter((a) => a.status === 200);
  for (const refused of answers.filter((a) => a.status !== 200)) {
    expect(refused.status, refused.body).toBe(503);
    expect(refused.retryAfter).toMatch(/^\d+$/);
    const error = ErrorBody.parse(JSON.parse(refused.body));
    expect(error.statusCode).toBe(503);
    expect(error.requestId).not.toBe('');
  }
  expect(ok.every((a) => JSON.parse(a.body).status === 'processed')).toBe(true);
  // Exactly the sales answered 200 were earned (1 point each): none lost, none earned unanswered.
  expect(await balance()).toBe(before + ok.length);
  expect(networkErrors + answers.length).toBe(counter);
  // The journal's last batch was written before the exit: one entry per answer, 200 or 503.
  const journal = createDatabase<any>({ sqliteFile: path.join(dataDir, 'gateway.sqlite') });
  try {
    const { n } = await journal.db
      .selectFrom('gw_deliveries')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(n)).toBe(answers.length);
  } finally {
    await journal.close();
  }
}

describe('graceful stop under load', () => {
  it('SIGTERM mid-burst: every received request answered (200 or 503 Error body + Retry-After), exit 0 within 10 s, the ledger holds exactly the sales answered 200', async () => {
    const { dir, env, engineFile } = sqliteGatewayFixture('lg-stop-', testSeedDocument(), 7);
    fixtures.push(dir);
    const balance = () => memberBalance({ sqliteFile: engineFile }, { vendor: VENDOR, storeId: STORE });
    await sigtermMidBurst(env, { before: 1200, balance }, path.join(dir, 'data')); // MBR-0001's seeded points
  }, 60_000);

  // With an engine service (LOYALTY_ENGINE_URL) and the SQLite store, no engine thread holds the
  // gateway's event loop while it stops: what remains to be done (answers in flight, the journal's
  // last batch) must hold it by itself.
  it('the same with a remote engine (LOYALTY_ENGINE_URL) and the SQLite store: every answer earned or refused with Retry-After, exit 0, the journal complete', async () => {
    const { dir, env } = sqliteGatewayFixture('lg-stop-remote-', testSeedDocument(), 8);
    fixtures.push(dir);
    const service = await openEngineService('sqlite');
    try {
      const parsed = parseSeed(testSeedDocument());
      if (!('seed' in parsed)) throw new Error('seed invalid');
      await service.embedded.applySeed(parsed.seed.engine); // what the service's ENGINE_SEED_FILE does
      const balance = async () =>
        (
          await service.embedded.eligibility({
            merchantId: 'm-bean',
            outletId: 'o-downtown',
            source: { vendor: VENDOR, storeId: STORE },
            customer: { type: 'membershipId', value: 'MBR-0001' },
          })
        ).walletBalance;
      await sigtermMidBurst(
        { ...env, LOYALTY_ENGINE_URL: service.url, LOYALTY_ENGINE_TOKEN: TEST_ENGINE_TOKEN },
        { before: await balance(), balance },
        path.join(dir, 'data'),
      );
    } finally {
      await service.close();
    }
  }, 60_000);
});
