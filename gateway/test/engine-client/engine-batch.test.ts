import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { EngineError, EngineUnavailableError } from '@loyalty-gateway/core';
import { ANN, BOB, SCOPE, sale, testSeed, uniqueId } from '@loyalty-gateway/engine/testing';
import { testDialects } from '@loyalty-gateway/storage/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpEngine, type HttpEngine } from '../../src/engine-client/create-http-engine.js';
import { failureKind } from '../../src/engine-client/engine-call-failure.js';
import { openEngineService, type EngineServiceHarness } from '../../src/testing/engine-service-harness.js';
import { answer, startScriptedServer, type ScriptedServer } from '../../src/testing/scripted-server.js';

/** Settles a call: its value, or the error it failed with, and when (ms after the start). */
async function settle<T>(call: Promise<T>, started = performance.now()): Promise<{ value?: T; error?: unknown; ms: number }> {
  return call.then(
    (value) => ({ value, ms: performance.now() - started }),
    (error: unknown) => ({ error, ms: performance.now() - started }),
  );
}

describe.each(testDialects())('batched calls to the engine service on $name (real sockets)', ({ name }) => {
  let harness: EngineServiceHarness;
  /** The requests the service received (method and path), counted on its HTTP server. */
  let requests: string[] = [];
  afterEach(async () => {
    await harness.close();
  });
  async function open(...args: Parameters<typeof openEngineService> extends [unknown, ...infer Rest] ? Rest : never) {
    harness = await openEngineService(name, ...args);
    await harness.embedded.applySeed(testSeed());
    requests = [];
    harness.server.server.on('request', (request) => requests.push(`${request.method} ${request.url}`));
  }
  const balance = async () => (await harness.embedded.eligibility({ ...SCOPE, customer: ANN })).walletBalance;

  it('the earns of one event-loop turn travel in one request; each lands exactly once, and their retries are duplicates', async () => {
    await open();
    const commands = Array.from({ length: 50 }, (_, i) => sale({ totalMinor: 100 + i * 100 }));
    const first = await Promise.all(commands.map((command) => harness.client.earn(command)));
    expect(first.map((outcome) => outcome.status)).toEqual(Array(50).fill('processed'));
    expect(first.map((outcome) => outcome.pointsEarned)).toEqual(commands.map((_, i) => 1 + i));
    expect(requests).toEqual(['POST /v1/commands']);
    // The vendors' retries, with new event ids, in one turn again: the ledger's keys answer each once more.
    const retries = await Promise.all(commands.map((command) => harness.client.earn({ ...command, eventId: `${command.eventId}-retry` })));
    expect(retries.map((outcome) => outcome.status)).toEqual(Array(50).fill('duplicate'));
    expect(await balance()).toBe(1200 + (50 * 51) / 2);
  });

  it('more calls than maxBatch are split into requests of at most maxBatch calls, answered in order', async () => {
    await open({ maxBatch: 8 });
    const commands = Array.from({ length: 20 }, (_, i) => sale({ totalMinor: 100 * (i + 1) }));
    const outcomes = await Promise.all(commands.map((command) => harness.client.earn(command)));
    expect(outcomes.map((outcome) => outcome.pointsEarned)).toEqual(commands.map((_, i) => i + 1));
    expect(requests.length).toBeGreaterThanOrEqual(3);
    expect(requests.every((request) => request === 'POST /v1/commands')).toBe(true);
  });

  it('a failing call in a batch fails alone: the others are answered, each error as its own endpoint renders it', async () => {
    await open();
    const order = uniqueId('order');
    const [redeemed, short, unknownMerchant, earned, eligible] = await Promise.all([
      settle(harness.client.redeem({ ...SCOPE, customer: ANN, externalTransactionId: order, pointsToRedeem: 100 })),
      settle(harness.client.redeem({ ...SCOPE, customer: BOB, externalTransactionId: `${order}-b`, pointsToRedeem: 100_000 })),
      settle(harness.client.earn(sale({}, { ...SCOPE, merchantId: 'm-nobody' }))),
      settle(harness.client.earn(sale({ totalMinor: 4200 }))),
      settle(harness.client.eligibility({ ...SCOPE, customer: ANN })),
    ]);
    expect(requests).toEqual(['POST /v1/commands']);
    expect(redeemed.value).toMatchObject({ status: 'REDEEMED', pointsDeducted: 100 });
    expect(short.error).toBeInstanceOf(EngineError);
    expect(short.error).toMatchObject({ code: 'insufficient_points', statusCode: 400 });
    expect(unknownMerchant.error).toMatchObject({ name: 'EngineError', code: 'internal_error' });
    expect(earned.value).toMatchObject({ status: 'processed', pointsEarned: 42 });
    expect(eligible.value).toMatchObject({ membershipId: 'MBR-0001' });
    expect(await balance()).toBe(1200 - 100 + 42);
    expect(harness.client.circuitState()).toBe('closed');
  });

  it("a caller's deadline passing while its batch is out answers that caller unavailable, commits nothing of its call, and the others are answered", async () => {
    const slowTransaction = uniqueId('slow');
    await open({}, (engine) => ({
      ...engine,
      earn: async (command, options) => {
        if (command.transaction.id === slowTransaction) await sleep(400);
        return engine.earn(command, options);
      },
    }));
    const started = performance.now();
    const [late, ...others] = await Promise.all([
      settle(harness.client.earn(sale({ id: slowTransaction, totalMinor: 9900 }), { deadline: Date.now() + 200 }), started),
      settle(harness.client.earn(sale({ totalMinor: 500 })), started),
      settle(harness.client.earn(sale({ totalMinor: 700 })), started),
    ]);
    expect(requests).toEqual(['POST /v1/commands']);
    expect(late.error).toBeInstanceOf(EngineUnavailableError);
    expect(failureKind(late.error)).toBe('timeout');
    expect(late.ms).toBeGreaterThanOrEqual(190);
    expect(late.ms).toBeLessThan(380); // its own deadline, not the batch's answer
    expect(others.map((o) => (o.value as { status?: string } | undefined)?.status)).toEqual(['processed', 'processed']);
    await sleep(100);
    // The slow earn ran past its budget on the service: rolled back, only the other two credited.
    expect(await balance()).toBe(1200 + 5 + 7);
    expect(await harness.client.earn(sale({ id: slowTransaction, totalMinor: 9900 }))).toMatchObject({
      status: 'processed',
      pointsEarned: 99,
    });
  });
});

describe('batches against a scripted service (real sockets)', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });
  const client = (url: string, extra: Partial<Parameters<typeof createHttpEngine>[0]> = {}): HttpEngine => {
    const engine = createHttpEngine({ url, retryDelaysMs: [10, 10], breaker: { failureThreshold: 100 }, ...extra });
    cleanups.push(() => engine.close());
    return engine;
  };
  const scripted = async (...handlers: Parameters<typeof startScriptedServer>[0]): Promise<ScriptedServer> => {
    const server = await startScriptedServer(handlers);
    cleanups.push(() => server.close());
    return server;
  };
  const eligibility = { ...SCOPE, customer: ANN };
  const ELIGIBLE = { membershipId: 'MBR-0001', walletBalance: 1200, redemptionRate: 100, eligibleRewards: [], warning: null };

  it('sends each call its own budget (deadline left minus the margin) and the token', async () => {
    let received: { authorization?: string; calls: Array<{ op: string; budgetMs: number }> } | undefined;
    const engineServer = createServer((request, response) => {
      let raw = '';
      request.on('data', (chunk: Buffer) => (raw += chunk.toString()));
      request.on('end', () => {
        received = {
          authorization: request.headers.authorization,
          ...(JSON.parse(raw) as { calls: Array<{ op: string; budgetMs: number }> }),
        };
        answer(200, {
          results: [
            { status: 200, body: ELIGIBLE },
            { status: 200, body: { status: 'processed' } },
          ],
        })(request, response);
      });
    });
    await new Promise<void>((resolve) => engineServer.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => engineServer.close(() => resolve())));
    const engine = client(`http://127.0.0.1:${(engineServer.address() as AddressInfo).port}`, {
      timeoutMs: 1_000,
      token: 'a-token-of-the-service',
    });
    await Promise.all([engine.eligibility(eligibility), engine.earn(sale(), { deadline: Date.now() + 500 })]);
    expect(received?.authorization).toBe('Bearer a-token-of-the-service');
    expect(received?.calls.map((c) => c.op)).toEqual(['eligibility', 'earn']);
    const [own, callers] = received!.calls.map((c) => c.budgetMs) as [number, number];
    expect(own).toBeGreaterThan(600);
    expect(own).toBeLessThanOrEqual(900);
    expect(callers).toBeGreaterThan(150);
    expect(callers).toBeLessThanOrEqual(400);
  });

  it('a batch answered 503: the earns are not retried (one hit), the eligibility check is retried on its own', async () => {
    const server = await scripted(answer(503, { code: 'engine_unavailable', message: 'down' }), answer(200, ELIGIBLE));
    const engine = client(server.url);
    const [earn, check] = await Promise.all([settle(engine.earn(sale())), settle(engine.eligibility(eligibility))]);
    expect(failureKind(earn.error)).toBe('unavailable_status');
    expect(check.value).toEqual(ELIGIBLE);
    expect(server.hits).toEqual(['POST /v1/commands', 'POST /v1/eligibility']);
  });

  it('a reset mid-batch fails every call in it as a connection failure, none retried but the read', async () => {
    const server = await scripted((request) => request.socket.destroy(), answer(200, ELIGIBLE));
    const engine = client(server.url);
    const results = await Promise.all([
      settle(engine.earn(sale())),
      settle(engine.redeem({ ...eligibility, externalTransactionId: 'o' })),
      settle(engine.eligibility(eligibility)),
    ]);
    expect(results.slice(0, 2).map((r) => failureKind(r.error))).toEqual(['connection', 'connection']);
    expect(results[2]!.value).toEqual(ELIGIBLE);
    expect(server.hits).toEqual(['POST /v1/commands', 'POST /v1/eligibility']);
  });

  it('calls waiting for the only busy socket travel in the next batch, and one whose deadline passes first is never sent', async () => {
    const server = await scripted(
      (request, response) =>
        void setTimeout(
          () =>
            answer(200, {
              results: [
                { status: 200, body: ELIGIBLE },
                { status: 200, body: ELIGIBLE },
              ],
            })(request, response),
          300,
        ),
      answer(200, {
        results: [
          { status: 200, body: ELIGIBLE },
          { status: 200, body: ELIGIBLE },
        ],
      }),
    );
    const engine = client(server.url, { connections: 1 });
    const first = [engine.eligibility(eligibility), engine.eligibility(eligibility)];
    await sleep(20);
    // While the socket is busy: one call with a short deadline, then two that can wait.
    const hurried = settle(engine.earn(sale(), { deadline: Date.now() + 150 }));
    const waiting = [engine.eligibility(eligibility), engine.eligibility(eligibility)];
    expect(await Promise.all(first)).toEqual([ELIGIBLE, ELIGIBLE]);
    const { error, ms } = await hurried;
    expect(failureKind(error)).toBe('timeout');
    expect((error as EngineUnavailableError).cause).toMatchObject({ message: expect.stringContaining('not sent') });
    expect(ms).toBeLessThan(280);
    expect(await Promise.all(waiting)).toEqual([ELIGIBLE, ELIGIBLE]);
    expect(server.hits).toEqual(['POST /v1/commands', 'POST /v1/commands']);
  });

  it('an engine service without batches (404 on /v1/commands): the calls go to their own endpoints, from then on too', async () => {
    const server = await scripted(answer(404, { code: 'not_found', message: 'No route POST /v1/commands.' }), answer(200, ELIGIBLE));
    const engine = client(server.url);
    expect(await Promise.all([engine.eligibility(eligibility), engine.eligibility(eligibility)])).toEqual([ELIGIBLE, ELIGIBLE]);
    expect(await Promise.all([engine.eligibility(eligibility), engine.eligibility(eligibility)])).toEqual([ELIGIBLE, ELIGIBLE]);
    expect(server.hits).toEqual(['POST /v1/commands', ...Array(4).fill('POST /v1/eligibility')]);
  });

  it('a batch answer without one result per call is unavailable (bad_response) for each caller; a result without a status for its caller alone', async () => {
    const server = await scripted(
      answer(200, { results: [{ status: 200, body: ELIGIBLE }] }),
      answer(200, { results: [{ status: 200, body: ELIGIBLE }, { body: ELIGIBLE }] }),
    );
    const engine = client(server.url, { retryDelaysMs: [] });
    const results = await Promise.all([settle(engine.earn(sale())), settle(engine.earn(sale()))]);
    expect(results.map((r) => failureKind(r.error))).toEqual(['bad_response', 'bad_response']);
    // A result without its status fails that call alone.
    const [answered, statusless] = await Promise.all([settle(engine.eligibility(eligibility)), settle(engine.earn(sale()))]);
    expect(answered.value).toEqual(ELIGIBLE);
    expect(failureKind(statusless.error)).toBe('bad_response');
  });
});
