import { EngineError, EngineUnavailableError, type LoyaltyEngine } from '@loyalty-gateway/core';
import { ANN, SCOPE, sale, testSeed } from '@loyalty-gateway/engine/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpEngine, type HttpEngine } from '../../src/engine-client/create-http-engine.js';
import { failureKind } from '../../src/engine-client/engine-call-failure.js';
import { openEngineService, type EngineServiceHarness } from '../../src/testing/engine-service-harness.js';
import { answer, closedPortUrl, startScriptedServer, startSilentServer, type ScriptedServer } from '../../src/testing/scripted-server.js';

const ELIGIBLE = { membershipId: 'MBR-0001', walletBalance: 1200, redemptionRate: 100, eligibleRewards: [], warning: null };
const eligibility = { ...SCOPE, customer: ANN };

/** Settles a call and reports how it failed and how long it took. */
async function failure(call: Promise<unknown>): Promise<{ error: unknown; ms: number }> {
  const started = performance.now();
  const error = await call.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (e: unknown) => e,
  );
  return { error, ms: performance.now() - started };
}

describe('HTTP engine failures (real sockets)', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });
  const client = (url: string, extra: Partial<Parameters<typeof createHttpEngine>[0]> = {}): HttpEngine => {
    const engine = createHttpEngine({ url, retryDelaysMs: [10, 10], ...extra });
    cleanups.push(() => engine.close());
    return engine;
  };
  const scripted = async (...handlers: Parameters<typeof startScriptedServer>[0]): Promise<ScriptedServer> => {
    const server = await startScriptedServer(handlers);
    cleanups.push(() => server.close());
    return server;
  };

  it('engine service stopped (port closed): EngineUnavailableError, quickly', async () => {
    const engine = client(await closedPortUrl());
    const earn = await failure(engine.earn(sale()));
    expect(earn.error).toBeInstanceOf(EngineUnavailableError);
    expect(earn.error).toMatchObject({ code: 'engine_unavailable', statusCode: 502 });
    expect(failureKind(earn.error)).toBe('connection');
    expect(earn.ms).toBeLessThan(500);
    const ping = await failure(engine.ping());
    expect(ping.error).toBeInstanceOf(EngineUnavailableError);
    expect(ping.ms).toBeLessThan(500);
  });

  it('a service that accepts and never answers: timeout → EngineUnavailableError, not retried', async () => {
    const silent = await startSilentServer();
    cleanups.push(() => silent.close());
    const engine = client(silent.url, { timeoutMs: 150 });
    const earn = await failure(engine.earn(sale()));
    expect(earn.error).toBeInstanceOf(EngineUnavailableError);
    expect(failureKind(earn.error)).toBe('timeout');
    expect(earn.ms).toBeGreaterThanOrEqual(140);
    expect(earn.ms).toBeLessThan(1_000);
    const check = await failure(engine.eligibility(eligibility));
    expect(failureKind(check.error)).toBe('timeout');
    expect(silent.requests()).toBe(2);
  });

  it('tells the engine the budget left (x-engine-budget-ms: remaining minus the margin) with every call', async () => {
    const budgets: unknown[] = [];
    const server = await scripted((request, response) => {
      budgets.push(request.headers['x-engine-budget-ms']);
      answer(200, ELIGIBLE)(request, response);
    });
    const engine = client(server.url, { timeoutMs: 1_000 });
    await engine.eligibility(eligibility);
    await engine.earn(sale(), { deadline: Date.now() + 500 }); // a caller's earlier deadline wins
    expect(budgets.map(Number)).toEqual([expect.any(Number), expect.any(Number)]);
    const [own, callers] = budgets.map(Number) as [number, number];
    expect(own).toBeGreaterThan(600); // leaves room for a loaded machine between the call and the send
    expect(own).toBeLessThanOrEqual(900); // default margin: a tenth of timeoutMs, at most 100 ms
    expect(callers).toBeGreaterThan(150);
    expect(callers).toBeLessThanOrEqual(400);
  });

  it("a caller's deadline already spent: unavailable at once, never sent, and the breaker is not tripped", async () => {
    const server = await scripted(answer(200, ELIGIBLE));
    const engine = client(server.url, { breaker: { failureThreshold: 1 } });
    const { error } = await failure(engine.earn(sale(), { deadline: Date.now() - 1 }));
    expect(failureKind(error)).toBe('timeout');
    expect(server.hits).toEqual([]);
    expect(engine.circuitState()).toBe('closed');
  });

  it('a call waiting for a busy socket is budgeted from when it is sent, and never sent once its deadline passed', async () => {
    const server = await scripted(
      (request, response) => void setTimeout(() => answer(200, ELIGIBLE)(request, response), 450),
      answer(200, ELIGIBLE),
    );
    // Each call alone on its endpoint (maxBatch 0); batched calls wait the same way (engine-batch.test.ts).
    const engine = client(server.url, { timeoutMs: 300, connections: 1, maxBatch: 0, breaker: { failureThreshold: 100 } });
    const [first, queued] = await Promise.all([failure(engine.earn(sale())), failure(engine.earn(sale()))]);
    expect(failureKind(first.error)).toBe('timeout');
    expect(failureKind(queued.error)).toBe('timeout');
    expect(queued.ms).toBeLessThan(400);
    expect(server.hits).toEqual(['POST /v1/earn']); // the queued call never reached the engine
  });

  it('eligibility is retried through one 503 and succeeds', async () => {
    const server = await scripted(answer(503, { code: 'engine_unavailable', message: 'not ready' }), answer(200, ELIGIBLE));
    expect(await client(server.url).eligibility(eligibility)).toEqual(ELIGIBLE);
    expect(server.hits).toEqual(['POST /v1/eligibility', 'POST /v1/eligibility']);
  });

  it('retries are bounded: at most 2 extra attempts, then EngineUnavailableError', async () => {
    const server = await scripted(answer(503, { code: 'engine_unavailable', message: 'not ready' }));
    const { error } = await failure(client(server.url).ping());
    expect(error).toBeInstanceOf(EngineUnavailableError);
    expect(server.hits).toEqual(Array(3).fill('GET /v1/ping'));
  });

  it('earn, reverse, withdrawRefunds, redeem and catalogSync are never retried on a 503 (one server hit each)', async () => {
    const server = await scripted(answer(503, { code: 'engine_unavailable', message: 'down' }));
    const engine = client(server.url, { breaker: { failureThreshold: 100 } });
    const calls: Array<(e: LoyaltyEngine) => Promise<unknown>> = [
      (e) => e.earn(sale()),
      (e) => e.reverse({ ...SCOPE, transactionId: 't', refundId: 'r' }),
      (e) => e.withdrawRefunds({ ...SCOPE, transactionId: 't', keep: [], asOf: '2026-01-15T11:00:00Z' }),
      (e) => e.redeem({ ...eligibility, externalTransactionId: 'o', pointsToRedeem: 1 }),
      (e) => e.catalogSync({ ...SCOPE, items: [] }),
    ];
    for (const call of calls) expect((await failure(call(engine))).error).toBeInstanceOf(EngineUnavailableError);
    expect(server.hits).toEqual([
      'POST /v1/earn',
      'POST /v1/reverse',
      'POST /v1/withdraw-refunds',
      'POST /v1/redeem',
      'POST /v1/catalog-sync',
    ]);
  });

  it('a connection reset mid-earn is unavailable and not retried', async () => {
    const server = await scripted((request) => request.socket.destroy());
    expect(failureKind((await failure(client(server.url).earn(sale()))).error)).toBe('connection');
    expect(server.hits).toHaveLength(1);
  });

  it('maps coded answers: 500 internal_error is an EngineError; 502 from a proxy, or a 5xx without a code, is unavailable', async () => {
    const server = await scripted(
      answer(500, { code: 'internal_error', message: 'The loyalty engine has no merchant "m-x".' }),
      (_q, r) => {
        r.writeHead(502, { 'content-type': 'text/html' }).end('<h1>Bad gateway</h1>');
      },
      (_q, r) => {
        r.writeHead(500).end('oops');
      },
      answer(400, { code: 'invalid_command', message: 'The engine command is invalid: extra unknown field.' }),
      answer(200, 'not an object but JSON'),
      (_q, r) => {
        r.writeHead(200).end('<html>');
      },
    );
    const engine = client(server.url, { breaker: { failureThreshold: 100 } });
    const internal = (await failure(engine.earn(sale()))).error;
    expect(internal).toBeInstanceOf(EngineError);
    expect(internal).toMatchObject({ code: 'internal_error', message: 'The loyalty engine has no merchant "m-x".' });
    expect((await failure(engine.earn(sale()))).error).toBeInstanceOf(EngineUnavailableError);
    expect((await failure(engine.earn(sale()))).error).toBeInstanceOf(EngineUnavailableError);
    const invalid = (await failure(engine.earn(sale()))).error;
    expect(invalid).toMatchObject({ name: 'EngineError', code: 'internal_error', message: expect.stringContaining('400 invalid_command') });
    expect(await engine.earn(sale())).toBe('not an object but JSON');
    expect(failureKind((await failure(engine.earn(sale()))).error)).toBe('bad_response');
  });

  describe('against the real engine service', () => {
    let harness: EngineServiceHarness;
    afterEach(async () => {
      await harness.close();
    });

    it('409 and 400 from the service are EngineErrors with the same code, status and message', async () => {
      harness = await openEngineService('sqlite');
      await harness.embedded.applySeed(testSeed());
      const redeem = { ...eligibility, externalTransactionId: 'order-1' };
      await harness.client.redeem({ ...redeem, pointsToRedeem: 100 });
      const conflict = (await failure(harness.client.redeem({ ...redeem, pointsToRedeem: 200 }))).error;
      expect(conflict).toBeInstanceOf(EngineError);
      expect(conflict).toMatchObject({
        code: 'already_redeemed',
        statusCode: 409,
        message:
          'Already redeemed against this order with a different request: 100 points ($1.00) were deducted then. Apply only that; nothing more was deducted.',
      });
      const short = (await failure(harness.client.redeem({ ...redeem, externalTransactionId: 'order-2', pointsToRedeem: 5000 }))).error;
      expect(short).toMatchObject({
        name: 'EngineError',
        code: 'insufficient_points',
        statusCode: 400,
        message: 'Needs 5000 points; customer has 1100 (3900 short).',
      });
      expect(harness.client.circuitState()).toBe('closed');
    });

    it('a wrong token is a deployment fault: EngineError internal_error naming the refusal', async () => {
      harness = await openEngineService('sqlite', { token: 'not-the-right-token' });
      const { error } = await failure(harness.client.ping());
      expect(error).toMatchObject({ name: 'EngineError', code: 'internal_error', message: expect.stringContaining('401 unauthorized') });
    });
  });
});
