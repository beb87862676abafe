import { Writable } from 'node:stream';
import { EngineUnavailableError } from '@loyalty-gateway/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openGateway, type GatewayFixture } from '../testing/gateway-fixture.js';
import { SECRET, sale } from '../testing/test-seed.js';
import { createGatewayLogging } from './logger-options.js';

const opened: GatewayFixture[] = [];
afterEach(async () => {
  for (const gw of opened.splice(0)) await gw.close();
});

function capture() {
  const lines: Array<Record<string, unknown>> = [];
  let raw = '';
  const stream = new Writable({
    write(chunk, _encoding, done) {
      raw += chunk.toString();
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  // The gateway's production pair: a redacting logger, and the request line's allowlisted one.
  const { logger, requestLine } = createGatewayLogging('info', stream);
  return { logger, requestLine, lines, raw: () => raw };
}

describe('request logging', () => {
  it('one line per request with vendor, store, connection, event, transaction, status and outcome; no secrets', async () => {
    const log = capture();
    const gw = await openGateway({ loggerInstance: log.logger, requestLineLogger: log.requestLine });
    opened.push(gw);
    const s = sale();
    await gw.send(s, { headers: { 'x-request-id': 'trace-1' } });
    await gw.send(s, { headers: { 'x-request-id': 'trace-2', authorization: 'Bearer top-secret' } });
    await gw.send(sale(), { signature: 'v1=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=', headers: { 'x-request-id': 'trace-3' } });
    const completed = log.lines.filter((l) => l.msg === 'request completed');
    expect(completed).toHaveLength(3);
    expect(completed[0]).toMatchObject({
      reqId: 'trace-1',
      statusCode: 200,
      vendor: 'acme-pos',
      store: 'store-001',
      connectionId: expect.any(String),
      eventType: 'sale.completed',
      transactionId: s.transaction.id,
      outcome: 'processed',
    });
    expect(completed[1]).toMatchObject({ reqId: 'trace-2', outcome: 'duplicate' });
    expect(completed[2]).toMatchObject({ reqId: 'trace-3', statusCode: 401, outcome: 'bad_signature', vendor: 'acme-pos' });
    expect(log.raw()).not.toContain(SECRET);
    expect(log.raw()).not.toContain('AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
    expect(log.raw()).not.toContain('top-secret');
  });

  it('redacts secrets in any logged object', () => {
    const log = capture();
    log.logger.info(
      { connection: { secrets: ['s1'], secret: 's2' }, secret: 's3', req: { headers: { 'x-service-signature': 'v1=sig' } } },
      'x',
    );
    expect(log.raw()).not.toMatch(/s1|s2|s3|v1=sig/);
  });
});

describe('engine failures', () => {
  it('an unexpected fault is a 500 internal_error that leaks nothing, logged with the request id', async () => {
    const log = capture();
    const gw = await openGateway({
      loggerInstance: log.logger,
      requestLineLogger: log.requestLine,
      wrapEngine: (engine) => ({
        ...engine,
        earn: async () => {
          throw new Error('SQLITE_CORRUPT: database disk image is malformed at /var/lib/x');
        },
      }),
    });
    opened.push(gw);
    const response = await gw.send(sale(), { headers: { 'x-request-id': 'boom-1' } });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({
      statusCode: 500,
      code: 'internal_error',
      message: 'Something went wrong in the gateway. Retry with backoff.',
      requestId: 'boom-1',
    });
    expect(response.body).not.toContain('SQLITE');
    const failure = log.lines.find((l) => l.msg === 'request failed');
    expect(failure).toMatchObject({ reqId: 'boom-1', level: 50, code: 'internal_error' });
    expect(JSON.stringify(failure)).toContain('SQLITE_CORRUPT');
  });

  it("a request's own logger is made only when something logs through it, with the request id bound", async () => {
    const log = capture();
    const children = vi.spyOn(log.logger, 'child');
    let fail = false;
    const gw = await openGateway({
      loggerInstance: log.logger,
      requestLineLogger: log.requestLine,
      wrapEngine: (engine) => ({
        ...engine,
        earn: async (command) => {
          if (fail) throw new Error('disk I/O error');
          return engine.earn(command);
        },
      }),
    });
    opened.push(gw);
    const made = children.mock.calls.length;
    for (let i = 0; i < 5; i += 1) expect((await gw.send(sale())).statusCode).toBe(200);
    // Five answered earns, five request lines, and not one pino child made for them.
    expect(log.lines.filter((l) => l.msg === 'request completed')).toHaveLength(5);
    expect(children.mock.calls.length).toBe(made);
    fail = true;
    expect((await gw.send(sale(), { headers: { 'x-request-id': 'lazy-1' } })).statusCode).toBe(500);
    expect(children.mock.calls.length).toBe(made + 1);
    expect(children.mock.calls.at(-1)?.[0]).toEqual({ reqId: 'lazy-1' });
    expect(log.lines.find((l) => l.msg === 'request failed')).toMatchObject({ reqId: 'lazy-1', level: 50 });
  });

  it("engine unavailable → 500 engine_unavailable_retry with Retry-After on the webhook (the spec's retry status), nothing cached", async () => {
    let down = true;
    const gw = await openGateway({
      wrapEngine: (engine) => ({
        ...engine,
        earn: async (command) => {
          if (down) throw new EngineUnavailableError();
          return engine.earn(command);
        },
      }),
    });
    opened.push(gw);
    const s = sale();
    const response = await gw.send(s);
    expect(response.statusCode).toBe(500);
    expect(response.json()).toMatchObject({
      statusCode: 500,
      code: 'engine_unavailable_retry',
      requestId: response.headers['x-request-id'],
    });
    expect(response.headers['retry-after']).toBe('1');
    down = false;
    expect((await gw.send(s)).json().status).toBe('processed');
  });

  it('probes (/health, /ready) stay out of the info log; other unauthenticated routes do not', async () => {
    const log = capture();
    const gw = await openGateway({ loggerInstance: log.logger, requestLineLogger: log.requestLine });
    opened.push(gw);
    await gw.app.inject({ method: 'GET', url: '/health' });
    await gw.app.inject({ method: 'GET', url: '/ready' });
    await gw.app.inject({ method: 'POST', url: '/webhooks/generic', payload: '{}', headers: { 'content-type': 'application/json' } });
    const urls = log.lines.filter((l) => l.msg === 'request completed').map((l) => l.url);
    expect(urls).toEqual(['/webhooks/generic']);
  });
});
