import { Writable } from 'node:stream';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openGateway, type GatewayFixture } from '../../src/testing/gateway-fixture.js';
import { sale } from '../../src/testing/test-seed.js';
import { createGatewayLogging } from '../../src/http/logger-options.js';

describe('the refusal limit while Redis is unreachable', () => {
  let gw: GatewayFixture;
  let redis: Redis;
  const lines: Array<Record<string, unknown>> = [];
  beforeAll(async () => {
    // A real client to a port nothing listens on: every command fails at once (no offline queue).
    redis = new Redis({
      host: '127.0.0.1',
      port: 1,
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    redis.on('error', () => undefined);
    const stream = new Writable({
      write(chunk, _encoding, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    const { logger, requestLine } = createGatewayLogging('info', stream);
    gw = await openGateway({ refusalLimit: { max: 1 }, redis, loggerInstance: logger, requestLineLogger: requestLine });
  });
  afterAll(async () => {
    await gw.close();
    redis.disconnect();
  });

  // Both of the limit's steps fail: reading the address's count (every request) and counting a refusal (401/403).
  it('lets requests through and says so: a signed sale is answered, refusals stay 401 past the limit, never 429', async () => {
    expect((await gw.send(sale())).statusCode).toBe(200);
    const bad = { signature: 'v1=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=' };
    for (let i = 0; i < 3; i += 1) expect((await gw.send(sale(), bad)).statusCode).toBe(401);
    expect((await gw.send(sale())).statusCode).toBe(200);
    const warnings = lines.filter((l) => l.msg === 'refusal limiter unavailable; requests let through');
    // One per failed read (five requests) and per failed count (three refusals).
    expect(warnings.length).toBe(8);
    expect(warnings.every((w) => w.level === 40)).toBe(true);
  });
});
