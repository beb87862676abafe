import { ErrorBody } from '@loyalty-gateway/core';
import { afterEach, describe, expect, it } from 'vitest';
import { createRedisClient } from '../../src/stores/index.js';
import { openGateway, type GatewayFixture } from '../../src/testing/gateway-fixture.js';
import { ODD_STORE, OTHER_SECRET, sale } from '../../src/testing/test-seed.js';

const opened: Array<{ close(): Promise<unknown> }> = [];
afterEach(async () => {
  for (const item of opened.splice(0).reverse()) await item.close();
});

async function gateway(options: Parameters<typeof openGateway>[0]): Promise<GatewayFixture> {
  const gw = await openGateway(options);
  opened.push(gw);
  return gw;
}

function expect429(response: Awaited<ReturnType<GatewayFixture['send']>>) {
  expect(response.statusCode).toBe(429);
  const body = ErrorBody.parse(response.json());
  expect(body).toMatchObject({ statusCode: 429, code: 'rate_limited', requestId: response.headers['x-request-id'] });
  const retryAfter = Number(response.headers['retry-after']);
  expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60).toBe(true);
}

describe('GATEWAY_RATE_LIMIT per connection', () => {
  it('over the limit → 429 rate_limited with Retry-After, per connection, after auth', async () => {
    const gw = await gateway({ rateLimit: { max: 3 } });
    for (let i = 0; i < 3; i += 1) expect((await gw.send(sale())).statusCode).toBe(200);
    expect429(await gw.send(sale()));
    // rejected requests count too (the budget is requests, not sales)
    expect429(await gw.send('not json'));
    // another connection has its own budget
    expect((await gw.send(sale({ store: ODD_STORE }), { store: ODD_STORE, secret: OTHER_SECRET })).statusCode).toBe(200);
    // once the budget is spent, an unauthenticated request is still refused by auth, not by the limiter
    expect((await gw.send(sale(), { signature: null })).statusCode).toBe(401);
    // health is never limited
    for (let i = 0; i < 5; i += 1) expect((await gw.app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
  });

  it('unauthenticated requests do not count: several refused first, then the whole budget is still there', async () => {
    const gw = await gateway({ rateLimit: { max: 3 } });
    // every kind of auth failure, aimed at the connection's own vendor and store, more than the budget
    const refused = [
      await gw.send(sale(), { signature: null }),
      await gw.send(sale(), { signature: 'v1=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=' }),
      await gw.send(sale(), { secret: 'whsec_not_the_secret_0123456789' }),
      await gw.send(sale(), { timestamp: Math.floor(Date.now() / 1000) - 3_600 }),
      await gw.send(sale(), { timestamp: null }),
    ];
    expect(refused.map((r) => [r.statusCode, r.json().code])).toEqual([
      [401, 'bad_signature'],
      [401, 'bad_signature'],
      [401, 'bad_signature'],
      [401, 'stale_timestamp'],
      [401, 'stale_timestamp'],
    ]);
    for (let i = 0; i < 3; i += 1) expect((await gw.send(sale())).statusCode).toBe(200);
    expect429(await gw.send(sale()));
  });

  it('every answer tells the connection its budget: x-ratelimit-limit, -remaining and -reset (seconds left in the window)', async () => {
    const gw = await gateway({ rateLimit: { max: 3 } });
    const budget = (response: Awaited<ReturnType<GatewayFixture['send']>>) => ({
      status: response.statusCode,
      limit: response.headers['x-ratelimit-limit'],
      remaining: response.headers['x-ratelimit-remaining'],
    });
    const answers = [await gw.send(sale()), await gw.send('not json'), await gw.send(sale()), await gw.send(sale())];
    expect(answers.map(budget)).toEqual([
      { status: 200, limit: '3', remaining: '2' },
      { status: 400, limit: '3', remaining: '1' },
      { status: 200, limit: '3', remaining: '0' },
      { status: 429, limit: '3', remaining: '0' },
    ]);
    for (const answer of answers) {
      const reset = Number(answer.headers['x-ratelimit-reset']);
      expect(Number.isInteger(reset) && reset >= 0 && reset <= 60).toBe(true);
    }
    expect429(answers[3]!);
    // Requests refused before authentication are not counted, and say nothing of a budget.
    expect((await gw.send(sale(), { signature: null })).headers['x-ratelimit-remaining']).toBeUndefined();
  });

  it('the window resets', async () => {
    const gw = await gateway({ rateLimit: { max: 1, windowMs: 300 } });
    expect((await gw.send(sale())).statusCode).toBe(200);
    expect429(await gw.send(sale()));
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect((await gw.send(sale())).statusCode).toBe(200);
  });

  it("in-process, the window is measured on the app's injected clock", async () => {
    let now = Date.now();
    const gw = await gateway({ rateLimit: { max: 1, windowMs: 60_000 }, clock: () => now });
    expect((await gw.send(sale())).statusCode).toBe(200);
    expect429(await gw.send(sale()));
    now += 59_000;
    expect429(await gw.send(sale()));
    now += 1_000; // the window has ended on the app's clock, with no real time passing
    expect((await gw.send(sale())).statusCode).toBe(200);
  });

  it.runIf(process.env.REDIS_URL)('holds across two gateway processes sharing REDIS_URL', async () => {
    const redisA = createRedisClient(process.env.REDIS_URL!);
    const redisB = createRedisClient(process.env.REDIS_URL!);
    opened.push({ close: () => redisA.quit() }, { close: () => redisB.quit() });
    const a = await gateway({ rateLimit: { max: 4 }, redis: redisA });
    const b = await gateway({ rateLimit: { max: 4 }, redis: redisB, database: a.database, masterKey: a.masterKey });
    const answers: Array<[number, unknown]> = [];
    for (let i = 0; i < 4; i += 1) {
      const response = await (i % 2 === 0 ? a : b).send(sale());
      answers.push([response.statusCode, response.headers['x-ratelimit-remaining']]);
    }
    // One budget, whichever process answers.
    expect(answers).toEqual([
      [200, '3'],
      [200, '2'],
      [200, '1'],
      [200, '0'],
    ]);
    expect429(await a.send(sale()));
    expect429(await b.send(sale()));
  });
});
