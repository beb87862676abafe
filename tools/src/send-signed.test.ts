import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Envelope, verifyV1 } from '@loyalty-gateway/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleSale } from './sample-sale.js';
import { sendSigned } from './send-signed.js';

const received: Array<{ headers: IncomingMessage['headers']; body: Buffer }> = [];
const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    received.push({ headers: req.headers, body: Buffer.concat(chunks) });
    res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'req-1' }).end('{"status":"processed"}');
  });
});
let url = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/generic`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('sampleSale', () => {
  it('is a valid canonical envelope for the given store and customer', () => {
    const sale = sampleSale({ storeId: 'store 1/A', customer: { type: 'membershipId', value: 'MBR-1' } });
    const parsed = Envelope.parse(sale);
    expect(parsed.store.id).toBe('store 1/A');
    expect(parsed.eventType === 'sale.completed' && parsed.transaction.customer?.value).toBe('MBR-1');
  });
});

describe('sendSigned', () => {
  it('sends the exact bytes with a v1 signature a verifier accepts', async () => {
    const body = '{"b": 1,   "a": 2}';
    const result = await sendSigned({ url, vendor: 'acme-pos', store: 'store 1/A', secret: 'whsec_x', body });
    expect(result).toEqual({ status: 200, requestId: 'req-1', body: { status: 'processed' } });
    const last = received.at(-1)!;
    expect(last.body.toString()).toBe(body);
    expect(last.headers['x-service-vendor']).toBe('acme-pos');
    expect(last.headers['x-service-store']).toBe('store 1/A');
    const timestamp = String(last.headers['x-service-timestamp']);
    expect(verifyV1(['whsec_x'], timestamp, last.body, String(last.headers['x-service-signature']))).toBe(true);
    expect(verifyV1(['other'], timestamp, last.body, String(last.headers['x-service-signature']))).toBe(false);
  });
});
