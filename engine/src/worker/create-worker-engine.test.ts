import { EngineError, EngineUnavailableError, GatewayError, type EarnCommand } from '@loyalty-gateway/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runPostgresStatement, testDatabaseOptions, testDialects } from '@loyalty-gateway/storage/testing';
import { once } from 'node:events';
import type { MessagePort } from 'node:worker_threads';
import pg from 'pg';
import type { EngineNotice } from '../ledger/create-embedded-engine.js';
import { SCOPE, testSeed } from '../testing/fixture.js';
import { createWorkerEngine, type WorkerEngine } from './create-worker-engine.js';

const CRASHING = new URL('./testing/crashing-engine-worker.mjs', import.meta.url);
const ECHO = new URL('./testing/echo-service.mjs', import.meta.url).href;
const ANN = { type: 'membershipId', value: 'MBR-0001' } as const;

const sale = (id: string): EarnCommand => ({
  ...SCOPE,
  eventId: `${id}:e`,
  occurredAt: '2026-11-20T10:00:00Z',
  store: { id: SCOPE.source.storeId },
  transaction: { id, totalMinor: 1000, currency: 'USD', customer: ANN, items: [], discountCodes: [] },
});

describe('the embedded engine on a worker thread', () => {
  let engine: WorkerEngine;
  let dispose: () => Promise<void>;
  const exits: string[] = [];
  const starts: number[] = [];

  beforeEach(async () => {
    const db = await testDatabaseOptions('sqlite');
    dispose = db.dispose;
    exits.length = 0;
    starts.length = 0;
    engine = await createWorkerEngine({
      database: db.options,
      entry: CRASHING,
      onWorkerExit: (detail) => exits.push(detail),
      onWorkerStart: (id) => starts.push(id),
    });
    await engine.applySeed(testSeed());
  });
  afterEach(async () => {
    await engine.close();
    await dispose();
  });

  const balance = async () => (await engine.eligibility({ ...SCOPE, customer: ANN })).walletBalance;

  it('answers through the port and keeps coded errors as themselves (class, code, message, fields)', async () => {
    expect(await engine.earn(sale('T-1'))).toMatchObject({ status: 'processed', membershipId: 'MBR-0001', pointsEarned: 10 });
    const refused = await engine
      .redeem({ ...SCOPE, customer: ANN, externalTransactionId: 'O-1', pointsToRedeem: 1_000_000 })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(EngineError);
    expect(refused).toMatchObject({ code: 'insufficient_points', statusCode: 400, message: expect.stringContaining('short') });
    const duplicateIds = await engine
      .catalogSync({
        ...SCOPE,
        items: [
          { externalId: 'A', name: 'a', isActive: true },
          { externalId: 'A', name: 'b', isActive: true },
        ],
      })
      .catch((e: unknown) => e);
    expect(duplicateIds).toBeInstanceOf(GatewayError);
    expect(duplicateIds).toMatchObject({
      code: 'validation_failed',
      statusCode: 422,
      fields: [expect.objectContaining({ path: 'items[1].externalId' })],
    });
  });

  it('calls made together travel together and each caller gets its own answer', async () => {
    const before = await balance();
    // Issued in one turn of the event loop: sent to the worker as one message, answered as one.
    const totals = Array.from({ length: 40 }, (_, i) => 100 * (i + 1));
    const answers = await Promise.all(
      totals.map((totalMinor, i) => engine.earn({ ...sale(`B-${i}`), transaction: { ...sale(`B-${i}`).transaction, totalMinor } })),
    );
    expect(answers.map((a) => a.pointsEarned)).toEqual(totals.map((t) => t / 100));
    // The same sales again, interleaved with new ones: duplicates and earns answered apart.
    const again = await Promise.all([engine.earn(sale('B-0')), engine.earn(sale('B-new')), engine.earn(sale('B-1'))]);
    expect(again.map((a) => a.status)).toEqual(['duplicate', 'processed', 'duplicate']);
    expect(await balance()).toBe(before + totals.reduce((sum, t) => sum + t / 100, 0) + 10);
  });

  it('a worker that dies mid-call: calls in flight fail as unavailable, the next call runs on a new worker with what was committed', async () => {
    expect(await engine.earn(sale('T-1'))).toMatchObject({ status: 'processed' });
    const before = await balance();
    const crashed = await Promise.allSettled([engine.earn(sale('CRASH-1')), engine.earn(sale('T-2'))]);
    for (const outcome of crashed) {
      expect(outcome.status).toBe('rejected');
      expect((outcome as PromiseRejectedResult).reason).toBeInstanceOf(EngineUnavailableError);
    }
    expect(exits).toEqual([expect.stringContaining('exit code 70')]);
    // The vendor's retries: the committed sale is a duplicate, the lost one earns now, once.
    expect(await engine.earn(sale('T-1'))).toMatchObject({ status: 'duplicate' });
    expect(await engine.earn(sale('T-2'))).toMatchObject({ status: 'processed', pointsEarned: 10 });
    expect(await balance()).toBe(before + 10);
  });

  it('calls waiting when a worker crashed share one restart (no worker started per call, none leaked)', async () => {
    await engine.earn(sale('CRASH-2')).catch(() => undefined);
    const after = await Promise.all(Array.from({ length: 5 }, (_, i) => engine.earn(sale(`T-after-${i}`))));
    expect(after.map((r) => r.status)).toEqual(Array(5).fill('processed'));
    expect(starts).toHaveLength(2); // the first worker and one restart
    expect(new Set(starts).size).toBe(2);
  });

  it('close() with calls in flight lets them finish, then the engine closes (none left pending)', async () => {
    const calls = Array.from({ length: 10 }, (_, i) => engine.earn(sale(`T-closing-${i}`)));
    await engine.close();
    const settled = await Promise.race([Promise.allSettled(calls), new Promise<'pending'>((r) => setTimeout(() => r('pending'), 5_000))]);
    expect(settled).not.toBe('pending');
    expect((settled as PromiseSettledResult<{ status: string }>[]).map((s) => s.status === 'fulfilled' && s.value.status)).toEqual(
      Array(10).fill('processed'),
    );
  });

  it('refuses calls once closed', async () => {
    await engine.close();
    await expect(engine.ping()).rejects.toThrow('closed');
    await expect(engine.hostOnEngineThread(ECHO, null)).rejects.toThrow('closed');
  });

  it("hosts its owner's service on the engine's own thread, on a port of its own, beside the engine's calls", async () => {
    const port = await engine.hostOnEngineThread(ECHO, { file: 'x.sqlite', n: 3 });
    try {
      const [hello] = (await once(port, 'message')) as [{ threadId: number; data: unknown }];
      expect(hello).toEqual({ threadId: starts[0], data: { file: 'x.sqlite', n: 3 } });
      port.postMessage({ ping: 1 });
      const [earned, [echo]] = await Promise.all([engine.earn(sale('T-hosted')), once(port, 'message')]);
      expect(earned).toMatchObject({ status: 'processed' });
      expect(echo).toEqual({ echo: { ping: 1 } });
    } finally {
      port.close();
    }
  });

  it("a service whose module has no serve(port, data) is told so on its port, which closes; the engine's calls go on", async () => {
    const port = await engine.hostOnEngineThread(new URL('./testing/no-service.mjs', import.meta.url).href, null);
    const closed = once(port, 'close');
    const [failed] = (await once(port, 'message')) as [{ hostFailed: string }];
    expect(failed.hostFailed).toMatch(/no-service\.mjs exports no serve\(port, data\)/);
    await closed;
    expect(await engine.earn(sale('T-after-failed-host'))).toMatchObject({ status: 'processed' });
  });

  it("a hosted service's port closes when the engine's thread dies; hosting again starts it on the next thread", async () => {
    const first = await engine.hostOnEngineThread(ECHO, 1);
    await once(first, 'message');
    const closed = once(first, 'close');
    await engine.earn(sale('CRASH-3')).catch(() => undefined);
    await closed;
    const second: MessagePort = await engine.hostOnEngineThread(ECHO, 2);
    try {
      const [hello] = (await once(second, 'message')) as [{ threadId: number; data: unknown }];
      expect(starts).toHaveLength(2);
      expect(hello).toEqual({ threadId: starts[1], data: 2 });
    } finally {
      second.close();
    }
  });
});

describe('a worker engine with heap bounds (resourceLimits)', () => {
  const limits = { maxOldGenerationSizeMb: 96, maxYoungGenerationSizeMb: 12 };

  it('runs its thread within them; a thread that outgrows them is reported and replaced, with what was committed', async () => {
    const db = await testDatabaseOptions('sqlite');
    const exits: string[] = [];
    const heapLimits: number[] = [];
    const engine = await createWorkerEngine({
      database: db.options,
      entry: CRASHING,
      resourceLimits: limits,
      onWorkerExit: (detail) => exits.push(detail),
      onWorkerStart: (_, heapLimit) => heapLimits.push(heapLimit),
    });
    try {
      // V8 reports old + young generation as the thread's heap limit (young: 3 semi-spaces, a power of 2 MiB each).
      expect(heapLimits).toEqual([(96 + 12) * 1024 * 1024]);
      await engine.applySeed(testSeed());
      expect(await engine.earn(sale('T-1'))).toMatchObject({ status: 'processed' });
      const hogged = await engine.earn(sale('HOG-1')).catch((e: unknown) => e);
      expect(hogged).toBeInstanceOf(EngineUnavailableError);
      expect(exits).toEqual([expect.stringContaining('ERR_WORKER_OUT_OF_MEMORY')]);
      expect(await engine.earn(sale('T-1'))).toMatchObject({ status: 'duplicate' });
      expect(await engine.earn(sale('T-2'))).toMatchObject({ status: 'processed' });
      expect(heapLimits).toEqual([(96 + 12) * 1024 * 1024, (96 + 12) * 1024 * 1024]);
    } finally {
      await engine.close();
      await db.dispose();
    }
  }, 30_000);
});

describe.runIf(testDialects().some((d) => d.name === 'postgres'))('a worker engine on postgres', () => {
  it("tells its owner, across the thread, that a batch's opening statement failed; the sales ran again, each failing or landing alone", async () => {
    const db = await testDatabaseOptions('postgres');
    const notices: EngineNotice[] = [];
    const engine = await createWorkerEngine({ database: db.options, onNotice: (notice) => notices.push(notice) });
    try {
      await engine.applySeed(testSeed());
      // A NUL character in a customer value: the opening statement's JSON refuses it, so the batch
      // holding it opens for nobody; the unit's own lookup (text) refuses it as well, so that sale
      // fails alone. The gateway's validation never lets one through (core's text fields); here it
      // stands for any error of the opening statement. Three such sales among six, in one lane (or
      // more): some lane's batch holds one of them beside another unit.
      const withNul = (id: string): EarnCommand => {
        const command = sale(id);
        return { ...command, transaction: { ...command.transaction, customer: { type: 'membershipId', value: `MBR-\u0000${id}` } } };
      };
      const before = (await engine.eligibility({ ...SCOPE, customer: ANN })).walletBalance;
      let round = 0;
      while (notices.length === 0 && round < 5) {
        round++;
        const good = [1, 2, 3].map((n) => engine.earn(sale(`T-${round}-${n}`)));
        const bad = [1, 2, 3].map((n) =>
          engine.earn(withNul(`N-${round}-${n}`)).then(
            () => 'landed',
            () => 'failed',
          ),
        );
        expect(await Promise.all(good)).toEqual([1, 2, 3].map(() => expect.objectContaining({ status: 'processed' })));
        expect(await Promise.all(bad)).toEqual(['failed', 'failed', 'failed']);
      }
      expect(notices[0]).toMatchObject({ event: 'batch-opening-failed', error: expect.stringMatching(/\\u0000|unicode/i) });
      expect(notices[0]!.units).toBeGreaterThanOrEqual(2);
      expect((await engine.eligibility({ ...SCOPE, customer: ANN })).walletBalance).toBe(before + 30 * round); // the good sales, once each
    } finally {
      await engine.close();
      await db.dispose();
    }
  });
});

describe.runIf(testDialects().some((d) => d.name === 'postgres'))('a worker engine on postgres with two commit lanes', () => {
  it('runs the earns arriving together as one transaction per lane (the lanes setting reaches the thread)', async () => {
    const db = await testDatabaseOptions('postgres');
    const { postgresUrl, postgresSchema } = db.options as { postgresUrl: string; postgresSchema: string };
    const engine = await createWorkerEngine({ database: db.options, groupCommitLanes: 2 });
    try {
      await engine.applySeed(testSeed());
      // Each sale row records the top-level transaction that wrote it.
      await runPostgresStatement(postgresUrl, `alter table "${postgresSchema}".sales add column written_by bigint default txid_current()`);
      await engine.earn(sale('T-warm')); // the settings cache and the prepared statements, warm
      const members = ['MBR-0001', 'MBR-0002'];
      const earns = Array.from({ length: 12 }, (_, i) => {
        const command = sale(`T-lane-${i}`);
        return engine.earn({
          ...command,
          transaction: { ...command.transaction, customer: { type: 'membershipId', value: members[i % 2]! } },
        });
      });
      expect((await Promise.all(earns)).map((r) => r.status)).toEqual(Array(12).fill('processed'));
      const client = new pg.Client({ connectionString: postgresUrl });
      await client.connect();
      try {
        const { rows } = await client.query<{ n: number }>(
          `select count(distinct written_by)::int as n from "${postgresSchema}".sales where transaction_id like 'T-lane-%'`,
        );
        // The two members' keys hash to different lanes of two (the default is one lane, where
        // they would share one transaction): a transaction per lane.
        expect(rows[0]!.n).toBe(2);
      } finally {
        await client.end();
      }
    } finally {
      await engine.close();
      await db.dispose();
    }
  });
});

describe('a worker engine that cannot open its database', () => {
  it('fails to start, with the database error', async () => {
    const started = createWorkerEngine({ database: { sqliteFile: '/nonexistent-dir/sub/engine.sqlite' } });
    await expect(started).rejects.toThrow(/unable to open|directory does not exist|SQLITE_CANTOPEN/i);
  });
});
