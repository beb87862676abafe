import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { headersFor, openGateway, nowSeconds, type GatewayFixture } from '../../src/testing/gateway-fixture.js';
import { INACTIVE_STORE, ODD_STORE, OTHER_SECRET, SECRET, STORE, sale } from '../../src/testing/test-seed.js';

let gw: GatewayFixture;
beforeAll(async () => {
  gw = await openGateway();
});
afterAll(() => gw.close());

async function expect401(response: Awaited<ReturnType<GatewayFixture['send']>>, code: string) {
  expect(response.statusCode).toBe(401);
  const body = response.json();
  expect(body).toMatchObject({ statusCode: 401, code, requestId: response.headers['x-request-id'] });
  expect(typeof body.message).toBe('string');
  return body;
}

describe('v1 authentication on POST /webhooks/generic', () => {
  it('accepts a correctly signed request', async () => {
    const response = await gw.send(sale());
    expect(response.statusCode).toBe(200);
    expect(response.json().status).toBe('processed');
  });

  it('missing vendor or store header → 401 unknown_connection naming the header', async () => {
    const noVendor = await expect401(await gw.send(sale(), { vendor: null }), 'unknown_connection');
    expect(noVendor.message).toContain('X-Service-Vendor');
    const noStore = await expect401(await gw.send(sale(), { store: null }), 'unknown_connection');
    expect(noStore.message).toContain('X-Service-Store');
  });

  it('unknown vendor, unknown store → 401 unknown_connection', async () => {
    await expect401(await gw.send(sale(), { vendor: 'nobody-pos' }), 'unknown_connection');
    await expect401(await gw.send(sale(), { store: 'store-999' }), 'unknown_connection');
    // a known store of another vendor is not this vendor's
    await expect401(await gw.send(sale(), { vendor: 'other-pos' }), 'unknown_connection');
  });

  it.each([
    ['case', 'STORE-001'],
    ['case (odd id)', 'main st/unit 7'],
    ['inner space', 'Main St /Unit 7'],
    ['double space', 'Main  St/Unit 7'],
    ['slash', 'Main St-Unit 7'],
    ['encoded slash', 'Main St%2FUnit 7'],
  ])('store id matched exactly (%s) → 401 unknown_connection', async (_what, storeId) => {
    await expect401(await gw.send(sale({ store: storeId }), { store: storeId, secret: OTHER_SECRET }), 'unknown_connection');
  });

  it('the store id exactly as entered (spaces, slash, case) is accepted', async () => {
    const response = await gw.send(sale({ store: ODD_STORE }), { store: ODD_STORE, secret: OTHER_SECRET });
    expect(response.statusCode).toBe(200);
  });

  it('inactive connection → 401 unknown_connection, even when correctly signed', async () => {
    await expect401(await gw.send(sale({ store: INACTIVE_STORE }), { store: INACTIVE_STORE }), 'unknown_connection');
  });

  it('timestamp 301 s in the past or future → 401 stale_timestamp; 300 s is accepted', async () => {
    await expect401(await gw.send(sale(), { timestamp: nowSeconds() - 301 }), 'stale_timestamp');
    await expect401(await gw.send(sale(), { timestamp: nowSeconds() + 301 }), 'stale_timestamp');
    expect((await gw.send(sale(), { timestamp: nowSeconds() - 299 })).statusCode).toBe(200);
    expect((await gw.send(sale(), { timestamp: nowSeconds() + 299 })).statusCode).toBe(200);
  });

  it('missing or malformed timestamp → 401 stale_timestamp', async () => {
    await expect401(await gw.send(sale(), { timestamp: null }), 'stale_timestamp');
    await expect401(await gw.send(sale(), { timestamp: '17e8' }), 'stale_timestamp');
    await expect401(await gw.send(sale(), { timestamp: new Date().toISOString() }), 'stale_timestamp');
    await expect401(await gw.send(sale(), { timestamp: `${nowSeconds()}.5` }), 'stale_timestamp');
  });

  it('unknown connection is reported before a stale timestamp, a stale timestamp before a bad signature', async () => {
    await expect401(await gw.send(sale(), { store: 'nope', timestamp: 1, signature: 'v1=bad' }), 'unknown_connection');
    await expect401(await gw.send(sale(), { timestamp: 1, signature: 'v1=bad' }), 'stale_timestamp');
  });

  it('missing, malformed or wrong signature → 401 bad_signature', async () => {
    const missing = await expect401(await gw.send(sale(), { signature: null }), 'bad_signature');
    expect(missing.message).toContain('missing');
    await expect401(await gw.send(sale(), { signature: 'v1=' }), 'bad_signature');
    await expect401(await gw.send(sale(), { signature: 'sha256=abc' }), 'bad_signature');
    await expect401(await gw.send(sale(), { secret: 'whsec_wrong_secret_0000000000' }), 'bad_signature');
    // the right secret of another connection is the wrong secret here
    await expect401(await gw.send(sale(), { secret: OTHER_SECRET }), 'bad_signature');
  });

  it('the signature covers the timestamp: a replayed signature with a new timestamp fails', async () => {
    const body = JSON.stringify(sale());
    const old = headersFor(body, { timestamp: nowSeconds() - 10 });
    await expect401(await gw.send(body, { signature: old['x-service-signature']! }), 'bad_signature');
  });

  it('a re-serialised body fails: the bytes signed must be the bytes sent', async () => {
    const signed = JSON.stringify(sale(), null, 2);
    const resent = JSON.stringify(JSON.parse(signed));
    await expect401(await gw.send(signed, { sendBody: resent }), 'bad_signature');
    await expect401(await gw.send(signed, { sendBody: `${signed}\n` }), 'bad_signature');
  });

  it('secret rotation: both the old and the new secret are accepted during the overlap', async () => {
    const [connection] = (await gw.store.listConnections({ vendor: 'acme-pos' })).filter((c) => c.storeId === STORE);
    const rotated = await gw.store.rotateSecret(connection!.id, { overlapUntil: new Date(Date.now() + 3_600_000) });
    expect((await gw.send(sale(), { secret: SECRET })).statusCode).toBe(200);
    expect((await gw.send(sale(), { secret: rotated.secret })).statusCode).toBe(200);
    await expect401(await gw.send(sale(), { secret: 'whsec_neither_of_them_000000' }), 'bad_signature');
  });

  it('a connection made inactive stops authenticating at once', async () => {
    const [connection] = (await gw.store.listConnections({ vendor: 'acme-pos' })).filter((c) => c.storeId === ODD_STORE);
    await gw.store.setConnectionActive(connection!.id, false);
    await expect401(await gw.send(sale({ store: ODD_STORE }), { store: ODD_STORE, secret: OTHER_SECRET }), 'unknown_connection');
    await gw.store.setConnectionActive(connection!.id, true);
  });

  it('GET /health needs no authentication', async () => {
    const response = await gw.app.inject({ method: 'GET', url: '/health' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain/);
    expect(response.body).toBe('ok');
  });
});
