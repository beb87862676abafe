import { connect } from 'node:net';
import { signV1 } from '@loyalty-gateway/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowSeconds, openGateway, type GatewayFixture } from '../../src/testing/gateway-fixture.js';
import { VENDOR, sale, testSeedDocument } from '../../src/testing/test-seed.js';

/** A store id as a merchant typed it, accents and all; it travels as UTF-8 bytes in the header. */
const ACCENTED_STORE = 'Café Ümlaut/1';
const ACCENTED_SECRET = 'whsec_accented_store_secret_0123456789';

interface RawResponse {
  status: number;
  body: { code?: string; status?: string; pointsEarned?: number };
}

/**
 * POST over a real socket with the header bytes written by hand: inject() and fetch() pass JS
 * strings, so neither can show what the gateway does with raw UTF-8 bytes in a header.
 */
function rawPost(port: number, path: string, headers: Array<[string, string]>, body: Buffer): Promise<RawResponse> {
  const head = [`POST ${path} HTTP/1.1`, 'Host: 127.0.0.1', 'Connection: close', `Content-Length: ${body.length}`]
    .concat(headers.map(([name, value]) => `${name}: ${value}`))
    .join('\r\n');
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const [statusLine = '', ...rest] = raw.split('\r\n');
      const text = rest.join('\r\n').split('\r\n\r\n').slice(1).join('\r\n\r\n');
      resolve({ status: Number(statusLine.split(' ')[1]), body: JSON.parse(text) as RawResponse['body'] });
    });
    socket.end(Buffer.concat([Buffer.from(`${head}\r\n\r\n`, 'utf8'), body]));
  });
}

function signedPost(port: number, secret: string): Promise<RawResponse> {
  const body = Buffer.from(JSON.stringify(sale({ store: ACCENTED_STORE, total: 7 })), 'utf8');
  const timestamp = String(nowSeconds());
  return rawPost(
    port,
    '/webhooks/generic',
    [
      ['Content-Type', 'application/json'],
      ['X-Service-Vendor', VENDOR],
      ['X-Service-Store', ACCENTED_STORE], // written as UTF-8 with the rest of the head
      ['X-Service-Timestamp', timestamp],
      ['X-Service-Signature', signV1(secret, timestamp, body)],
    ],
    body,
  );
}

let gw: GatewayFixture;
let port: number;
beforeAll(async () => {
  const document = testSeedDocument();
  document.merchants[0]!.connections.push({
    vendor: VENDOR,
    storeId: ACCENTED_STORE,
    outletId: 'o-downtown',
    secret: ACCENTED_SECRET,
    active: true,
  });
  gw = await openGateway({ seedDocument: document });
  await gw.app.listen({ host: '127.0.0.1', port: 0 });
  port = (gw.app.server.address() as { port: number }).port;
});
afterAll(() => gw.close());

describe('a store id with accents, sent as raw UTF-8 header bytes over a real socket', () => {
  it('matches the connection the merchant typed it for: 200 processed with points', async () => {
    const before = await gw.balance('MBR-0001');
    const response = await signedPost(port, ACCENTED_SECRET);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body).toMatchObject({ status: 'processed', pointsEarned: 7 });
    expect(await gw.balance('MBR-0001')).toBe(before + 7);
  });

  it('a wrong secret for that store: 401 bad_signature (the store was found, the signature refused)', async () => {
    const response = await signedPost(port, 'whsec_not_the_accented_secret_0123');
    expect(response.status).toBe(401);
    expect(response.body.code).toBe('bad_signature');
  });
});
