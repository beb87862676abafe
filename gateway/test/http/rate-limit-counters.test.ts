import rateLimit from '@fastify/rate-limit';
import type { Connection } from '@loyalty-gateway/core';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { rateLimitOptions } from '../../src/http/rate-limit-options.js';
import '../../src/http/fastify-types.js';

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** The gateway's rate-limit options on a bare app whose "authentication" takes the connection id from a header. */
async function limitedApp(max: number, windowMs = 60_000): Promise<FastifyInstance> {
  const instance = Fastify({ logger: false });
  instance.decorateRequest('connection', null);
  instance.addHook('onRequest', async (request) => {
    request.connection = { id: String(request.headers['x-connection']) } as Connection;
  });
  await instance.register(rateLimit, rateLimitOptions({ max, windowMs }));
  instance.get('/', async () => 'ok');
  await instance.ready();
  app = instance;
  return instance;
}

const hit = (instance: FastifyInstance, connection: string) =>
  instance.inject({ method: 'GET', url: '/', headers: { 'x-connection': connection } }).then((r) => r.statusCode);

describe('in-process rate-limit counters', () => {
  it('beyond 5,000 active connections every counter is kept and the limit still holds (an LRU would forget counters and silently stop limiting)', async () => {
    const instance = await limitedApp(2);
    expect(await hit(instance, 'busy')).toBe(200);
    expect(await hit(instance, 'busy')).toBe(200);
    expect(await hit(instance, 'busy')).toBe(429);
    for (let i = 0; i < 6_000; i += 1) await hit(instance, `other-${i}`);
    expect(await hit(instance, 'busy')).toBe(429);
  }, 60_000);
});
