import { ErrorBody } from '@loyalty-gateway/core';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { headersFor as headersOf, openGateway, type GatewayFixture } from '../testing/gateway-fixture.js';
import { scanKeys } from '../testing/redis-keys.js';
import { sale } from '../testing/test-seed.js';

/**
 * Unauthenticated and failed requests are bounded per client address (GATEWAY_REFUSED_LIMIT):
 * past the limit, that address is answered 429 before any work; other addresses and the
 * per-connection budget are untouched. Behind a trusted proxy the address is X-Forwarded-For's.
 */
const backends = process.env.REDIS_URL ? (['memory', 'redis'] as const) : (['memory'] as const);

describe.each(backends)('refused requests are limited per client address (%s counters)', (backend) => {
  let gw: GatewayFixture;
  let redis: Redis | null = null;
  beforeAll(async () => {
    if (backend === 'redis') {
      redis = new Redis(process.env.REDIS_URL!);
      // Counters of an earlier run expire within a minute; start clean for these test addresses.
      const keys = await scanKeys(redis, 'lg:refused:*');
      if (keys.length > 0)
        await redis.del(...keys.filter((k) => /(203\.0\.113|198\.51\.100|192\.0\.2)\./.test(k)).concat('lg:refused:none'));
    }
    gw = await openGateway({ refusalLimit: { max: 5 }, trustedProxies: ['10.9.9.9'], redis });
  });
  afterAll(async () => {
    await gw.close();
    await redis?.quit();
  });

  const badSignature = (remoteAddress: string, headers: Record<string, string> = {}) => {
    const body = JSON.stringify(sale());
    return gw.app.inject({
      method: 'POST',
      url: '/webhooks/generic',
      remoteAddress,
      payload: body,
      headers: {
        'content-type': 'application/json',
        'x-service-vendor': 'acme-pos',
        'x-service-store': 'store-001',
        'x-service-timestamp': String(Math.floor(Date.now() / 1000)),
        'x-service-signature': 'v1=AAAA',
        ...headers,
      },
    });
  };

  it('five refusals from one address, then 429 rate_limited with Retry-After for anything from it — even a valid request; another address is served', async () => {
    for (let i = 0; i < 5; i += 1) expect((await badSignature('203.0.113.7')).statusCode).toBe(401);
    const limited = await badSignature('203.0.113.7');
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(ErrorBody.parse(limited.json())).toMatchObject({
      code: 'rate_limited',
      message: expect.stringContaining('refused requests from this address'),
    });
    // A valid, signed request from the same address is refused too (before any work)...
    const valid = await gw.app.inject({ method: 'POST', url: '/webhooks/generic', remoteAddress: '203.0.113.7', ...signedRequest() });
    expect(valid.statusCode).toBe(429);
    // ...while another address is served normally.
    expect(
      (await gw.app.inject({ method: 'POST', url: '/webhooks/generic', remoteAddress: '198.51.100.4', ...signedRequest() })).statusCode,
    ).toBe(200);
    // Health probes are never limited.
    expect((await gw.app.inject({ method: 'GET', url: '/health', remoteAddress: '203.0.113.7' })).statusCode).toBe(200);
  });

  it('successful requests never count', async () => {
    for (let i = 0; i < 20; i += 1) {
      expect(
        (await gw.app.inject({ method: 'POST', url: '/webhooks/generic', remoteAddress: '192.0.2.50', ...signedRequest() })).statusCode,
      ).toBe(200);
    }
  });

  it("behind a trusted proxy the client address is X-Forwarded-For's; from anyone else the header is ignored", async () => {
    // Through the trusted proxy: each forwarded client has its own budget.
    for (let i = 0; i < 5; i += 1) expect((await badSignature('10.9.9.9', { 'x-forwarded-for': '192.0.2.10' })).statusCode).toBe(401);
    expect((await badSignature('10.9.9.9', { 'x-forwarded-for': '192.0.2.10' })).statusCode).toBe(429);
    expect((await badSignature('10.9.9.9', { 'x-forwarded-for': '192.0.2.11' })).statusCode).toBe(401);
    // An untrusted sender cannot escape its own limit by naming someone else.
    for (let i = 0; i < 5; i += 1) await badSignature('203.0.113.99', { 'x-forwarded-for': `192.0.2.${100 + i}` });
    expect((await badSignature('203.0.113.99', { 'x-forwarded-for': '192.0.2.200' })).statusCode).toBe(429);
  });

  function signedRequest() {
    const body = JSON.stringify(sale());
    return { payload: body, headers: headersOf(body) };
  }
});

describe("the in-process refusal counts' window is measured on the app's injected clock", () => {
  let gw: GatewayFixture;
  let now = Date.now();
  beforeAll(async () => {
    gw = await openGateway({ refusalLimit: { max: 2, windowMs: 60_000 }, clock: () => now });
  });
  afterAll(async () => {
    await gw.close();
  });

  it('an address past its limit is served again once the window has ended on that clock, with no real time passing', async () => {
    const bad = { signature: 'v1=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=' };
    for (let i = 0; i < 2; i += 1) expect((await gw.send(sale(), bad)).statusCode).toBe(401);
    expect((await gw.send(sale())).statusCode).toBe(429);
    now += 59_000;
    expect((await gw.send(sale())).statusCode).toBe(429);
    now += 1_000;
    expect((await gw.send(sale())).statusCode).toBe(200);
  });
});

describe.runIf(process.env.REDIS_URL)('refused requests counted by other gateway processes (Redis counters)', () => {
  let gw: GatewayFixture;
  let redis: Redis;
  const address = '198.51.100.77';
  beforeAll(async () => {
    redis = new Redis(process.env.REDIS_URL!);
    await redis.del(`lg:refused:${address}`);
    gw = await openGateway({ refusalLimit: { max: 5, redisReadCacheMs: 300 }, redis });
  });
  afterAll(async () => {
    await gw.close();
    await redis.del(`lg:refused:${address}`);
    await redis.quit();
  });

  const signed = () => {
    const body = JSON.stringify(sale());
    return gw.app.inject({ method: 'POST', url: '/webhooks/generic', remoteAddress: address, payload: body, headers: headersOf(body) });
  };

  it("are seen once this process's read of the address is older than redisReadCacheMs; until then its count is reused, not read per request", async () => {
    expect((await signed()).statusCode).toBe(200); // reads the address's count (0) from Redis
    // Another process counts the address past the limit.
    await redis.set(`lg:refused:${address}`, '5', 'PX', 60_000);
    expect((await signed()).statusCode).toBe(200); // the count read a moment ago is reused
    await new Promise((resolve) => setTimeout(resolve, 350));
    const limited = await signed();
    expect(limited.statusCode).toBe(429);
    expect(ErrorBody.parse(limited.json()).code).toBe('rate_limited');
  });
});
