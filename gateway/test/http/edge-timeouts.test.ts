import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { ErrorBody } from '@loyalty-gateway/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { createGatewayStore, createMemoryIdempotencyCache } from '../../src/stores/index.js';
import { createEmbeddedEngine } from '@loyalty-gateway/engine';
import type { FastifyInstance } from 'fastify';
import { Agent, request } from 'undici';
import { openMigratedDatabase } from '../../src/testing/migrated-database.js';

/** A raw HTTP exchange over a real socket: what an ordinary client (or a slow attacker) sees. */
function exchange(
  port: number,
  write: (socket: Socket) => void,
  waitMs = 10_000,
): Promise<{ text: string; closed: boolean; elapsed: number }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = connect(port, '127.0.0.1');
    let text = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ text, closed: false, elapsed: Date.now() - started });
    }, waitMs);
    socket.on('data', (chunk) => (text += chunk.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ text, closed: true, elapsed: Date.now() - started });
    });
    socket.on('connect', () => write(socket));
    socket.on('timeout', () => reject(new Error('socket timeout')));
  });
}

const statusOf = (raw: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(raw)?.[1] ?? 0);
const bodyOf = (raw: string) => JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4));
const headerOf = (raw: string, name: string) =>
  new RegExp(`^${name}: (.*)$`, 'im').exec(raw.slice(0, raw.indexOf('\r\n\r\n')))?.[1]?.trim();

describe('HTTP edges over a real socket: timeouts, oversized headers, closing', () => {
  let app: FastifyInstance;
  let port = 0;
  beforeAll(async () => {
    const database = await openMigratedDatabase('sqlite');
    const store = await createGatewayStore({ database, masterKey: randomBytes(32) });
    await store.ensureVendor({ slug: 'acme-pos', name: 'Acme POS', tier: 'generic' });
    await store.ensureConnection({
      vendor: 'acme-pos',
      storeId: 'store-001',
      merchantId: 'm-1',
      outletId: 'o-1',
      secret: 'whsec_edge_test_secret_0123456789',
    });
    const engine = await createEmbeddedEngine({ database });
    app = await buildApp({
      engine,
      connections: store,
      idempotency: createMemoryIdempotencyCache(),
      rateLimit: { max: 1000 },
      http: { requestTimeoutMs: 1_000, maxConnections: 64 },
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as { port: number }).port;
  });
  afterAll(() => app.close());

  it.each(['/webhooks/generic', '/v1/refund'])(
    "a body that never finishes on %s (a real connection's headers) is answered 408 request_timeout in the Error body, then closed",
    async (path) => {
      const answer = await exchange(port, (socket) => {
        const auth = `X-Service-Vendor: acme-pos\r\nX-Service-Store: store-001\r\nX-Service-Timestamp: ${Math.floor(Date.now() / 1000)}\r\nX-Service-Signature: v1=AAAA\r\n`;
        socket.write(`POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n${auth}Content-Length: 1000\r\n\r\n{"a":1,`);
      });
      expect(answer.closed).toBe(true);
      expect(answer.elapsed).toBeLessThan(5_000);
      expect(statusOf(answer.text)).toBe(408);
      const body = ErrorBody.parse(bodyOf(answer.text));
      expect(body).toMatchObject({ statusCode: 408, code: 'request_timeout' });
      expect(body.requestId).toMatch(/^[0-9a-f-]{36}$/);
      expect(headerOf(answer.text, 'x-request-id')).toBe(body.requestId);
    },
  );

  it('without credentials the refusal comes at once (401 before any body is read), and the unfinished body still ends the connection', async () => {
    const answer = await exchange(port, (socket) => {
      socket.write('POST /webhooks/generic HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"a":1,');
    });
    expect(statusOf(answer.text)).toBe(401);
    expect(answer.closed).toBe(true);
    expect(answer.elapsed).toBeLessThan(5_000);
  });

  it('a 3 MB body written whole before the answer is read gets 413 payload_too_large (never a reset), five times over', async () => {
    for (let i = 0; i < 5; i += 1) {
      const body = Buffer.alloc(3 * 1024 * 1024, 0x61);
      const answer = await exchange(port, (socket) => {
        socket.write(
          `POST /webhooks/generic HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nX-Service-Vendor: acme-pos\r\nX-Service-Store: store-001\r\nX-Service-Timestamp: ${Math.floor(Date.now() / 1000)}\r\nX-Service-Signature: v1=AAAA\r\nContent-Length: ${body.length}\r\n\r\n`,
        );
        socket.write(body);
      });
      expect(statusOf(answer.text), `attempt ${i}`).toBe(413);
      expect(ErrorBody.parse(bodyOf(answer.text))).toMatchObject({ statusCode: 413, code: 'payload_too_large' });
    }
  });

  it('an ordinary HTTP client (undici) posting 3 MB reads the 413 Error body, not a socket error, ten times over', async () => {
    const agent = new Agent({ connections: 1 });
    try {
      for (let i = 0; i < 10; i += 1) {
        const response = await request(`http://127.0.0.1:${port}/webhooks/generic`, {
          method: 'POST',
          dispatcher: agent,
          body: Buffer.alloc(3 * 1024 * 1024, 0x61),
          headers: {
            'content-type': 'application/json',
            'x-service-vendor': 'acme-pos',
            'x-service-store': 'store-001',
            'x-service-timestamp': String(Math.floor(Date.now() / 1000)),
            'x-service-signature': 'v1=AAAA',
          },
        });
        expect(response.statusCode, `attempt ${i}`).toBe(413);
        expect(ErrorBody.parse(await response.body.json())).toMatchObject({ code: 'payload_too_large' });
      }
    } finally {
      await agent.close();
    }
  });

  it("headers over Node's limit are answered 431 headers_too_large in the Error body", async () => {
    const answer = await exchange(port, (socket) => {
      socket.write(`GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    });
    expect(statusOf(answer.text)).toBe(431);
    expect(ErrorBody.parse(bodyOf(answer.text))).toMatchObject({ statusCode: 431, code: 'headers_too_large' });
  });

  it('a request line HTTP cannot parse is answered 400 in the Error body', async () => {
    const answer = await exchange(port, (socket) => socket.write('NOT-HTTP\r\n\r\n'));
    expect(statusOf(answer.text)).toBe(400);
    expect(ErrorBody.parse(bodyOf(answer.text))).toMatchObject({ statusCode: 400, code: 'malformed_request' });
  });
});

describe('closing with a request in flight', () => {
  it('the request in flight is answered, with Connection: close, and its connection then ends (nothing kept alive holds the stop up)', async () => {
    const database = await openMigratedDatabase('sqlite');
    const store = await createGatewayStore({ database, masterKey: randomBytes(32) });
    const engine = await createEmbeddedEngine({ database });
    const app = await buildApp({ engine, connections: store, idempotency: createMemoryIdempotencyCache(), rateLimit: { max: 1000 } });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    app.get('/slow-for-test', async () => {
      await held;
      return 'done';
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const port = (app.server.address() as { port: number }).port;
    const answer = exchange(
      port,
      (socket) => socket.write('GET /slow-for-test HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n'),
      10_000,
    );
    await new Promise((r) => setTimeout(r, 200));
    const closing = app.close();
    await new Promise((r) => setTimeout(r, 100));
    release();
    await closing;
    const { text, closed } = await answer;
    expect(statusOf(text)).toBe(200);
    expect(text).toContain('done');
    expect(headerOf(text, 'connection')).toBe('close');
    expect(closed).toBe(true);
  });
});
