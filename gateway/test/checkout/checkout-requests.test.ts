import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loggerOptions } from '../../src/http/logger-options.js';
import type { GatewayFixture } from '../../src/testing/gateway-fixture.js';
import { OTHER_SECRET } from '../../src/testing/test-seed.js';
import { CHECKOUT_ENDPOINTS } from '../../src/checkout/register-checkout-routes.js';
import { MEMBERS, PATHS, byMembership, expectError, openCheckoutGateway } from '../../src/testing/checkout-kit.js';

function capture() {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: pino(loggerOptions('info'), stream), lines };
}

const log = capture();
let gw: GatewayFixture;
beforeAll(async () => {
  gw = await openCheckoutGateway('sqlite', { loggerInstance: log.logger });
});
afterAll(() => gw.close());

describe.each(CHECKOUT_ENDPOINTS.map((e) => ({ path: e.path })))('$path: reading, auth and HTTP errors', ({ path }) => {
  it('malformed JSON: 400 malformed_json; a JSON value that is not an object: 400 malformed_body; empty body: 400', async () => {
    expectError(await gw.post(path, '{"customer": '), 400, 'malformed_json');
    expectError(await gw.post(path, Buffer.from([0xff, 0xfe, 0x7b, 0x7d])), 400, 'malformed_json');
    for (const body of ['[]', '"text"', '42', 'null']) expectError(await gw.post(path, body), 400, 'malformed_body');
    expectError(await gw.post(path, ''), 400, 'malformed_json');
  });

  it('the four-header v1 auth: bad signature, stale timestamp, unknown connection, body changed after signing: 401', async () => {
    const body = JSON.stringify({ x: 1 });
    expectError(await gw.post(path, body, { signature: null }), 401, 'bad_signature');
    expectError(await gw.post(path, body, { secret: OTHER_SECRET }), 401, 'bad_signature');
    expectError(await gw.post(path, body, { sendBody: JSON.stringify({ x: 2 }) }), 401, 'bad_signature');
    expectError(await gw.post(path, body, { timestamp: Math.floor(Date.now() / 1000) - 301 }), 401, 'stale_timestamp');
    expectError(await gw.post(path, body, { vendor: 'nobody' }), 401, 'unknown_connection');
    expectError(await gw.post(path, body, { store: 'store-closed' }), 401, 'unknown_connection');
  });

  it('wrong method: 405 with Allow; wrong content type: 400; too large: 413', async () => {
    const get = await gw.app.inject({ method: 'GET', url: path });
    expectError(get, 405, 'method_not_allowed');
    expect(get.headers.allow).toBe('POST');
    expectError(await gw.post(path, 'a=1', { contentType: 'application/x-www-form-urlencoded' }), 400, 'unsupported_media_type');
    expectError(await gw.post(path, JSON.stringify({ pad: 'x'.repeat(1_048_577) })), 413, 'payload_too_large');
  });
});

describe('the request log', () => {
  it('one line per checkout call with its endpoint, order / refund ids and outcome', async () => {
    const order = `LOG-${Date.now()}`;
    const headers = (id: string) => ({ headers: { 'x-request-id': id } });
    await gw.post(PATHS.eligibility, { customer: byMembership(MEMBERS.rich.id) }, headers('log-1'));
    await gw.post(
      PATHS.redeem,
      { customer: byMembership(MEMBERS.rich.id), externalTransactionId: order, pointsToRedeem: 5 },
      headers('log-2'),
    );
    await gw.post(
      PATHS.redeem,
      { customer: byMembership(MEMBERS.poor.id), externalTransactionId: `${order}-b`, pointsToRedeem: 5000 },
      headers('log-3'),
    );
    await gw.post(PATHS.refund, { externalTransactionId: order, refundTransactionId: `${order}-r` }, headers('log-4'));
    await gw.post(PATHS.catalog, { store: { id: 'store-001' }, items: [] }, headers('log-5'));
    const line = (id: string) => log.lines.find((l) => l.msg === 'request completed' && l.reqId === id);
    expect(line('log-1')).toMatchObject({ statusCode: 200, vendor: 'acme-pos', eventType: 'eligibility', outcome: 'eligible:2/6' });
    expect(line('log-2')).toMatchObject({ statusCode: 200, eventType: 'redeem', transactionId: order, outcome: 'REDEEMED' });
    expect(line('log-3')).toMatchObject({ statusCode: 400, eventType: 'redeem', outcome: 'insufficient_points' });
    expect(line('log-4')).toMatchObject({ eventType: 'refund', transactionId: order, refundId: `${order}-r`, outcome: 'REVERSED' });
    expect(line('log-5')).toMatchObject({ eventType: 'catalog-sync', outcome: 'synced' });
  });
});
