import { ErrorBody } from '@loyalty-gateway/core';
import { createTestPki } from '@loyalty-gateway/core/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tlsServerFactory } from '../../src/tls/tls-server-factory.js';
import { openFeaturedGateway, type FeaturedGateway } from '../../src/testing/featured-gateway.js';
import { featuredSeedDocument } from '../../src/testing/featured-seed.js';
import { headersFor, openGateway, type GatewayFixture } from '../../src/testing/gateway-fixture.js';
import { sale as saleOf } from '../../src/testing/test-seed.js';
import { RawHttpConnection, type RawExchange } from '../../src/testing/raw-http-connection.js';

/**
 * Requests Node's HTTP server used to answer on its own, before the app saw them — a bare status
 * with no body and no request id, or no answer at all — each found by the HTTP fuzz of the doors
 * and the admin API on real sockets (featured/featured-http-fuzz.test.ts), written here byte for
 * byte as that test sent them.
 */
const serverPki = createTestPki('Gateway Server CA');
const serverCert = serverPki.issue('localhost');
let gw: GatewayFixture;
let tls: FeaturedGateway;
let port: number;
let tlsPort: number;
const portOf = (app: FastifyInstance) => (app.server.address() as { port: number }).port;

beforeAll(async () => {
  gw = await openGateway();
  await gw.app.listen({ port: 0, host: '127.0.0.1' });
  port = portOf(gw.app);
  tls = await openFeaturedGateway({
    seedDocument: featuredSeedDocument(),
    serverFactory: tlsServerFactory({ cert: serverCert.certPem, key: serverCert.keyPem, ca: [] }),
  });
  await tls.app.listen({ port: 0, host: '127.0.0.1' });
  tlsPort = portOf(tls.app);
});
afterAll(async () => {
  await gw?.close();
  await tls?.close();
  serverPki.dispose();
});

async function send(head: string, over: 'http' | 'https' = 'http'): Promise<RawExchange> {
  const connection = over === 'http' ? await RawHttpConnection.open(port) : await RawHttpConnection.openTls(tlsPort, serverPki.caPem);
  try {
    return await connection.exchange(Buffer.from(head, 'latin1'), { timeoutMs: 5_000 });
  } finally {
    connection.close();
  }
}

function errorOf(exchange: RawExchange, status: number, code: string): ErrorBody {
  expect(exchange.answer?.status, exchange.answer?.body.toString()).toBe(status);
  const body = ErrorBody.parse(JSON.parse(exchange.answer!.body.toString('utf8')));
  expect(body).toMatchObject({ statusCode: status, code });
  expect(exchange.answer!.headers['x-request-id']).toEqual([body.requestId]);
  return body;
}

/** A signed sale (its body read whole, so nothing else closes its connection) that asks to upgrade to WebSocket, after `filler` headers. */
function upgradingSale(id: string, filler = ''): Buffer {
  const sale = JSON.stringify(saleOf({ id }));
  const signed = Object.entries(headersFor(sale)).map(([name, value]) => `${name}: ${value}\r\n`);
  return Buffer.from(
    `POST /webhooks/generic HTTP/1.1\r\nHost: gw\r\n${signed.join('')}${filler}Connection: Upgrade\r\nUpgrade: websocket\r\nContent-Length: ${sale.length}\r\n\r\n${sale}`,
  );
}

describe('requests Node answered by itself are answered by the gateway, in the Error shape', () => {
  it.each(['http', 'https'] as const)(
    'an HTTP/1.1 request without Host (%s): 400 malformed_request echoing X-Request-ID, then the connection closed (Node wrote a bare 400)',
    async (over) => {
      const exchange = await send('GET /health HTTP/1.1\r\nX-Request-ID: no-host-1\r\n\r\n', over);
      const body = errorOf(exchange, 400, 'malformed_request');
      expect(body.requestId).toBe('no-host-1');
      expect(body.message).toMatch(/Host/);
      expect(exchange.connection).toBe('clean');
      // HTTP/1.0 has no Host requirement.
      expect((await send('GET /health HTTP/1.0\r\n\r\n', over)).answer?.status).toBe(200);
    },
  );

  it('a HEAD request Node cannot parse gets the head of its 400 only: a body would be read as the answer to a next request', async () => {
    const connection = await RawHttpConnection.open(port);
    const exchange = await connection.exchange(Buffer.from('HEAD /health HTTP/1.1\r\nHost: gw\r\nBad Name: x\r\n\r\n'), { head: true });
    connection.close();
    expect(exchange.answer?.status).toBe(400);
    expect(exchange.answer?.headers['x-request-id']).toHaveLength(1);
    expect(exchange.extra.toString()).toBe('');
    expect(exchange.connection).toBe('clean');
  });

  it('a request answered from its headers whose body then breaks the HTTP framing gets that one answer, not a second 400 after it', async () => {
    const connection = await RawHttpConnection.open(port);
    // Refused at once from its headers (no Host), its chunked body is read and discarded, and its chunk size is not hex.
    const exchange = await connection.exchange(
      Buffer.from(
        'POST /webhooks/generic HTTP/1.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n2zz\r\n{}\r\n0\r\n\r\n',
      ),
    );
    connection.close();
    expect(errorOf(exchange, 400, 'malformed_request').message).toMatch(/Host/);
    expect(exchange.extra.toString()).toBe('');
    expect(exchange.connection).toBe('clean');
  });

  it('a request with an Expect other than 100-continue is answered as without it (Node wrote a bare 417)', async () => {
    const exchange = await send('GET /nowhere HTTP/1.1\r\nHost: gw\r\nExpect: foo\r\nX-Request-ID: expect-1\r\n\r\n');
    expect(errorOf(exchange, 404, 'not_found').requestId).toBe('expect-1');
    expect((await send('GET /health HTTP/1.1\r\nHost: gw\r\nExpect: \r\n\r\n')).answer?.status).toBe(200);
  });

  it('CONNECT: 405 method_not_allowed echoing X-Request-ID, then the connection closed (Node closed it without a word)', async () => {
    for (const target of ['127.0.0.1:443', '/webhooks/generic']) {
      const exchange = await send(`CONNECT ${target} HTTP/1.1\r\nHost: gw\r\nX-Request-ID: connect-1\r\n\r\n`);
      expect(errorOf(exchange, 405, 'method_not_allowed').requestId).toBe('connect-1');
      expect(exchange.connection).toBe('clean');
    }
  });

  it("a request that asks to upgrade is answered as plain HTTP and its connection closed: on it Node no longer refused a next request's oversized head (431) and waited for the timeout (408 after 10 s)", async () => {
    const connection = await RawHttpConnection.open(port);
    const upgrade = await connection.exchange(upgradingSale('T-UPGRADE-1'));
    expect(upgrade.answer?.status, upgrade.answer?.body.toString()).toBe(200);
    expect(upgrade.answer?.headers.connection).toEqual(['close']);
    expect(upgrade.connection).toBe('clean');
    connection.close();
    // The next request comes on a new connection, where an oversized head is refused at once.
    const started = Date.now();
    errorOf(await send(`GET /health HTTP/1.1\r\nHost: gw\r\nX-Pad: ${'p'.repeat(17_000)}\r\n\r\n`), 431, 'headers_too_large');
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('a request that asks to upgrade and is answered before routing (a path that cannot be decoded) has its connection closed too', async () => {
    const connection = await RawHttpConnection.open(port);
    const upgrade = await connection.exchange(
      Buffer.from('GET /webhooks/%zz HTTP/1.1\r\nHost: gw\r\nConnection: Upgrade\r\nUpgrade: h2c\r\n\r\n'),
    );
    connection.close();
    errorOf(upgrade, 404, 'not_found');
    expect(upgrade.answer?.headers.connection).toEqual(['close']);
    expect(upgrade.connection).toBe('clean');
  });

  it('a request that asks to upgrade after a thousand other headers (12 KB in all, under the size limit) is seen to, and its connection closed too', async () => {
    // Node's default count limit (maxHeadersCount) dropped every header past about the thousandth
    // without a word, so the app did not see the Upgrade its parser had acted on (the fuzz sent 2,100).
    const filler = Array.from({ length: 1_100 }, (_, i) => `X-H${i}: v\r\n`).join('');
    const connection = await RawHttpConnection.open(port);
    const upgrade = await connection.exchange(upgradingSale('T-UPGRADE-2', filler));
    connection.close();
    expect(upgrade.answer?.status).toBe(200);
    expect(upgrade.answer?.headers.connection).toEqual(['close']);
    expect(upgrade.connection).toBe('clean');
  });
});
