import { saleFingerprint, type LoyaltyEngine } from '@loyalty-gateway/core';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ANN, SCOPE, openSeededEngine, sale, type TestEngine } from '../testing/fixture.js';
import { createEngineServer } from './create-engine-server.js';

const TOKEN = 'engine-token-0123456789';
const auth = { authorization: `Bearer ${TOKEN}` };

describe('engine HTTP service', () => {
  let t: TestEngine;
  let app: FastifyInstance;
  const serve = (engine: LoyaltyEngine) => {
    app = createEngineServer({ engine, token: TOKEN });
    return app;
  };
  beforeEach(async () => {
    t = await openSeededEngine('sqlite');
    serve(t.engine);
  });
  afterEach(async () => {
    await app.close();
    await t.close();
  });

  it('GET /health is liveness without auth; /v1 routes need the bearer token', async () => {
    expect((await app.inject({ url: '/health' })).statusCode).toBe(200);
    for (const authorization of [undefined, 'Bearer wrong', `Basic ${TOKEN}`, 'Bearer ', TOKEN]) {
      const reply = await app.inject({ url: '/v1/ping', headers: authorization === undefined ? {} : { authorization } });
      expect(reply.statusCode).toBe(401);
      expect(reply.json()).toMatchObject({ code: 'unauthorized' });
    }
    expect((await app.inject({ url: '/v1/ping', headers: auth })).statusCode).toBe(200);
  });

  it('without a configured token, /v1 routes are open', async () => {
    const open = createEngineServer({ engine: t.engine });
    expect((await open.inject({ url: '/v1/ping' })).statusCode).toBe(200);
    await open.close();
  });

  it('serves each port call as JSON', async () => {
    const command = sale({ totalMinor: 1299 });
    const earn = await app.inject({ method: 'POST', url: '/v1/earn', headers: auth, payload: command });
    expect(earn.json()).toEqual({
      status: 'processed',
      membershipId: 'MBR-0001',
      pointsEarned: 12,
      stampsUpdated: [],
      warning: null,
      fingerprint: saleFingerprint(command.transaction),
    });
    const eligibility = await app.inject({ method: 'POST', url: '/v1/eligibility', headers: auth, payload: { ...SCOPE, customer: ANN } });
    expect(eligibility.json()).toMatchObject({ membershipId: 'MBR-0001', walletBalance: 1212 });
    const reverse = await app.inject({
      method: 'POST',
      url: '/v1/reverse',
      headers: auth,
      payload: { ...SCOPE, transactionId: command.transaction.id, refundId: 'r-1' },
    });
    expect(reverse.json()).toEqual({ status: 'REVERSED', pointsReversed: 12, pointsReCredited: 0, membershipId: 'MBR-0001' });
    const sync = await app.inject({ method: 'POST', url: '/v1/catalog-sync', headers: auth, payload: { ...SCOPE, items: [] } });
    expect(sync.json()).toMatchObject({ status: 'synced', itemsReceived: 0 });
  });

  it('answers a command that does not fit the port with 400 invalid_command and every faulty field', async () => {
    const bad = { ...sale(), extra: 1, transaction: { ...sale().transaction, totalMinor: 12.5 } };
    const reply = await app.inject({ method: 'POST', url: '/v1/earn', headers: auth, payload: bad });
    expect(reply.statusCode).toBe(400);
    expect(reply.json()).toMatchObject({
      code: 'invalid_command',
      fields: expect.arrayContaining([
        { path: 'extra', message: 'unknown field' },
        expect.objectContaining({ path: 'transaction.totalMinor' }),
      ]),
    });
    const json = await app.inject({
      method: 'POST',
      url: '/v1/redeem',
      headers: { ...auth, 'content-type': 'application/json' },
      payload: '{nope',
    });
    expect([json.statusCode, json.json().code]).toEqual([400, 'bad_request']);
  });

  it('renders an EngineError with its status, code and message', async () => {
    const reply = await app.inject({
      method: 'POST',
      url: '/v1/redeem',
      headers: auth,
      payload: { ...SCOPE, customer: ANN, externalTransactionId: 'o-1', pointsToRedeem: 5000 },
    });
    expect(reply.statusCode).toBe(400);
    expect(reply.json()).toEqual({ code: 'insufficient_points', message: 'Needs 5000 points; customer has 1200 (3800 short).' });
  });

  it('an unexpected failure is 500 internal_error, or 503 engine_unavailable when the engine cannot serve', async () => {
    await app.close();
    const failing = serve({
      ...t.engine,
      earn: async () => {
        throw new Error('boom: secret detail');
      },
    });
    const reply = await failing.inject({ method: 'POST', url: '/v1/earn', headers: auth, payload: sale() });
    expect([reply.statusCode, reply.json().code]).toEqual([500, 'internal_error']);
    expect(reply.body).not.toContain('secret detail');
    await t.engine.close();
    const down = await failing.inject({ method: 'POST', url: '/v1/earn', headers: auth, payload: sale() });
    expect([down.statusCode, down.json().code]).toEqual([503, 'engine_unavailable']);
  });

  it('GET /v1/ping is 503 when the engine cannot serve; unknown routes are 404', async () => {
    expect((await app.inject({ url: '/v1/nope', headers: auth })).json()).toMatchObject({ code: 'not_found' });
    await t.engine.close();
    const reply = await app.inject({ url: '/v1/ping', headers: auth });
    expect([reply.statusCode, reply.json().code]).toEqual([503, 'engine_unavailable']);
  });

  it('x-engine-budget-ms: a spent budget is refused with 503 engine_unavailable and nothing is written; a malformed one is 400', async () => {
    const command = sale({ totalMinor: 1299 });
    const spent = await app.inject({ method: 'POST', url: '/v1/earn', headers: { ...auth, 'x-engine-budget-ms': '0' }, payload: command });
    expect([spent.statusCode, spent.json().code]).toEqual([503, 'engine_unavailable']);
    expect(spent.json().message).toMatch(/nothing was committed/);
    expect(await t.db.selectFrom('sales').select('id').execute()).toEqual([]);
    for (const budget of ['-1', '1.5', 'soon', '3600001']) {
      const bad = await app.inject({
        method: 'POST',
        url: '/v1/earn',
        headers: { ...auth, 'x-engine-budget-ms': budget },
        payload: command,
      });
      expect([bad.statusCode, bad.json().code, bad.json().fields?.[0]?.path]).toEqual([
        400,
        'invalid_command',
        'header x-engine-budget-ms',
      ]);
    }
    const ok = await app.inject({ method: 'POST', url: '/v1/earn', headers: { ...auth, 'x-engine-budget-ms': '2000' }, payload: command });
    expect(ok.json()).toMatchObject({ status: 'processed', pointsEarned: 12 });
  });
  it('POST /v1/commands answers each call in order as its own endpoint would, with its own budget; a bad call fails alone', async () => {
    const command = sale({ totalMinor: 1299 });
    const calls = [
      { op: 'earn', budgetMs: 2000, command },
      { op: 'earn', command: { ...sale(), extra: 1 } },
      { op: 'earn', budgetMs: 0, command: sale({ totalMinor: 5000 }) },
      { op: 'redeem', command: { ...SCOPE, customer: ANN, externalTransactionId: 'o-1', pointsToRedeem: 5000 } },
      { op: 'nope', command: {} },
      { op: 'eligibility', budgetMs: 3_600_001, command: { ...SCOPE, customer: ANN } },
      { op: 'eligibility', command: { ...SCOPE, customer: ANN } },
    ];
    const reply = await app.inject({ method: 'POST', url: '/v1/commands', headers: auth, payload: { calls } });
    expect(reply.statusCode).toBe(200);
    const { results } = reply.json() as { results: Array<{ status: number; body: Record<string, unknown> }> };
    expect(results.map((r) => [r.status, r.body.code ?? r.body.status ?? r.body.membershipId])).toEqual([
      [200, 'processed'],
      [400, 'invalid_command'],
      [503, 'engine_unavailable'],
      [400, 'insufficient_points'],
      [400, 'invalid_command'],
      [400, 'invalid_command'],
      [200, 'MBR-0001'],
    ]);
    expect(results[1]!.body.fields).toEqual([{ path: 'extra', message: 'unknown field' }]);
    // Only the first earn was written: the one with a spent budget committed nothing. (The calls run
    // concurrently, as separate requests would: the eligibility check may or may not see that earn.)
    expect((await t.db.selectFrom('sales').select('id').execute()).length).toBe(1);
    // The envelope itself: refused whole; the token as on every /v1 route.
    for (const payload of [{}, { calls: [] }, { calls: {} }, { calls: [], more: 1 }]) {
      const bad = await app.inject({ method: 'POST', url: '/v1/commands', headers: auth, payload });
      expect([bad.statusCode, bad.json().code]).toEqual([400, 'invalid_command']);
    }
    const anonymous = await app.inject({ method: 'POST', url: '/v1/commands', payload: { calls } });
    expect([anonymous.statusCode, anonymous.json().code]).toEqual([401, 'unauthorized']);
  });
});
