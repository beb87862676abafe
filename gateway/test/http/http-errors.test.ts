import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBody } from '@loyalty-gateway/core';
import { openGateway, type GatewayFixture } from '../../src/testing/gateway-fixture.js';
import { sale } from '../../src/testing/test-seed.js';

let gw: GatewayFixture;
beforeAll(async () => {
  gw = await openGateway();
});
afterAll(() => gw.close());

function expectError(response: { statusCode: number; json(): any; headers: Record<string, unknown> }, status: number, code: string) {
  expect(response.statusCode).toBe(status);
  const body = ErrorBody.parse(response.json());
  expect(body).toMatchObject({ statusCode: status, code });
  expect(body.requestId).toBe(response.headers['x-request-id']);
  return body;
}

describe('Fastify-level failures rendered as the Error body', () => {
  it('unknown route → 404 not_found', async () => {
    expectError(await gw.app.inject({ method: 'GET', url: '/nope' }), 404, 'not_found');
    expectError(await gw.app.inject({ method: 'POST', url: '/webhooks/generic/extra' }), 404, 'not_found');
  });

  it('wrong method on a known path → 405 method_not_allowed with Allow', async () => {
    const response = await gw.app.inject({ method: 'GET', url: '/webhooks/generic?x=1' });
    expectError(response, 405, 'method_not_allowed');
    expect(response.headers.allow).toBe('POST');
    const health = await gw.app.inject({ method: 'DELETE', url: '/health' });
    expectError(health, 405, 'method_not_allowed');
    expect(health.headers.allow).toBe('GET, HEAD');
  });

  it('body over 1 MiB (signed) → 413 payload_too_large; exactly 1 MiB is read', async () => {
    const base = JSON.stringify(sale());
    const pad = (size: number) => `${base.slice(0, -1)},"pad":"${'x'.repeat(size - base.length - 9)}"}`;
    const over = pad(1_048_577);
    expect(Buffer.byteLength(over)).toBe(1_048_577);
    expectError(await gw.send(over), 413, 'payload_too_large');
    const exact = pad(1_048_576);
    expect(Buffer.byteLength(exact)).toBe(1_048_576);
    const body = expectError(await gw.send(exact), 422, 'validation_failed');
    expect(body.fields).toEqual([{ path: 'pad', message: 'unknown field' }]);
  });

  it("content type other than application/json → 400 unsupported_media_type (the spec's status for a malformed body), nothing earned", async () => {
    const before = await gw.balance('MBR-0001');
    expectError(await gw.send(sale(), { contentType: 'text/plain' }), 400, 'unsupported_media_type');
    expectError(await gw.send(sale(), { contentType: 'application/x-www-form-urlencoded' }), 400, 'unsupported_media_type');
    expectError(await gw.send(sale(), { contentType: null }), 400, 'unsupported_media_type');
    expect(await gw.balance('MBR-0001')).toBe(before);
    expect((await gw.send(sale(), { contentType: 'application/json; charset=utf-8' })).statusCode).toBe(200);
  });

  it('a URL Fastify cannot decode is rendered too', async () => {
    const response = await gw.app.inject({ method: 'GET', url: '/webhooks/%zz', headers: { 'x-request-id': 'bad-url' } });
    expect(expectError(response, 404, 'not_found').requestId).toBe('bad-url');
  });
});

describe('request ids', () => {
  it('echoes a given X-Request-ID on success and on errors', async () => {
    const ok = await gw.send(sale(), { headers: { 'x-request-id': 'pos-42.abc:7_X' } });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['x-request-id']).toBe('pos-42.abc:7_X');
    const failed = await gw.send(sale(), { signature: null, headers: { 'x-request-id': 'pos-43' } });
    expect(expectError(failed, 401, 'bad_signature').requestId).toBe('pos-43');
    const notFound = await gw.app.inject({ method: 'GET', url: '/x', headers: { 'x-request-id': 'pos-44' } });
    expect(expectError(notFound, 404, 'not_found').requestId).toBe('pos-44');
    const health = await gw.app.inject({ method: 'GET', url: '/health', headers: { 'x-request-id': 'probe-1' } });
    expect(health.headers['x-request-id']).toBe('probe-1');
  });

  it('generates one when absent or unacceptable (too long, non-printable)', async () => {
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
    const none = await gw.send(sale());
    expect(none.headers['x-request-id']).toMatch(uuid);
    const long = await gw.send(sale(), { headers: { 'x-request-id': 'x'.repeat(129) } });
    expect(long.headers['x-request-id']).toMatch(uuid);
    expect((await gw.send(sale(), { headers: { 'x-request-id': 'x'.repeat(128) } })).headers['x-request-id']).toBe('x'.repeat(128));
    const tab = await gw.send(sale(), { headers: { 'x-request-id': 'a\tb' } });
    expect(tab.headers['x-request-id']).toMatch(uuid);
    // Only [A-Za-z0-9._:-]: an id is quoted in logs, URLs and support tickets, never interpreted.
    for (const odd of ['pos 42', 'a/b', '<script>', '"quoted"', '100%', 'a,b', 'ü-1']) {
      const answer = await gw.send(sale(), { headers: { 'x-request-id': odd } });
      expect(answer.headers['x-request-id'], odd).toMatch(uuid);
    }
    const failed = await gw.send(sale(), { vendor: null });
    expect(expectError(failed, 401, 'unknown_connection').requestId).toMatch(uuid);
  });

  it('every response carries its own id', async () => {
    const [a, b] = await Promise.all([gw.send(sale()), gw.send(sale())]);
    expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
  });
});
