import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adapters } from '../../src/adapters.js';
import { openFeaturedGateway, type FeaturedGateway } from '../../src/testing/featured-gateway.js';
import { featuredSeedDocument } from '../../src/testing/featured-seed.js';
import { openGateway, type GatewayFixture } from '../../src/testing/gateway-fixture.js';
import { sale } from '../../src/testing/test-seed.js';
import { clientKey } from '../../src/http/client-key.js';

describe('clientKey: the address a per-client limit counts', () => {
  it('an IPv4 client is itself, written one way whatever the socket says', () => {
    expect(clientKey('203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('::FFFF:cb00:7107')).toBe('203.0.113.7');
  });

  it('an IPv6 client is its /64 (one subscriber or one host gets a whole /64 to pick addresses from), however it is written', () => {
    const key = '2001:db8:1:2::/64';
    for (const address of ['2001:db8:1:2::1', '2001:0DB8:0001:0002:ffff:ffff:ffff:ffff', '2001:db8:1:2:0:0:0:0', '2001:db8:1:2::9%eth0'])
      expect(clientKey(address)).toBe(key);
    expect(clientKey('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(clientKey('::1')).toBe('::/64');
    expect(clientKey('2001:db8::')).toBe('2001:db8::/64');
    expect(clientKey('1:2:3:4:5:6:1.2.3.4')).toBe('1:2:3:4::/64');
  });

  it('anything else is kept as given (never throws)', () => {
    expect(clientKey('')).toBe('');
    expect(clientKey('not-an-address')).toBe('not-an-address');
  });
});

describe('the refusal limit counts an IPv6 client per /64', () => {
  let gw: GatewayFixture;
  beforeAll(async () => {
    gw = await openGateway({ refusalLimit: { max: 5 } });
  });
  afterAll(() => gw.close());

  const badSignature = (remoteAddress: string) => {
    const body = JSON.stringify(sale());
    return gw.app.inject({
      method: 'POST',
      url: '/webhooks/generic',
      remoteAddress,
      payload: body,
      headers: {
        'content-type': 'application/json',
        'x-service-vendor': 'acme-pos',
        'x-service-store': 'store-001',
        'x-service-timestamp': String(Math.floor(Date.now() / 1000)),
        'x-service-signature': 'v1=AAAA',
      },
    });
  };

  it('five refusals from five addresses of one /64, then 429 for a sixth of the same /64; another /64 is served', async () => {
    for (let i = 1; i <= 5; i += 1) expect((await badSignature(`2001:db8:aa:1::${i.toString(16)}`)).statusCode).toBe(401);
    expect((await badSignature('2001:db8:aa:1:ffff::77')).statusCode).toBe(429);
    expect((await badSignature('2001:db8:aa:2::1')).statusCode).toBe(401);
  });
});

describe('the unsigned handshake limit counts the client, not the proxy it came through', () => {
  let gw: FeaturedGateway;
  beforeAll(async () => {
    gw = await openFeaturedGateway({
      seedDocument: featuredSeedDocument(),
      adapters,
      handshakeLimits: { perAddress: 3, windowMs: 60_000 },
      trustedProxies: ['10.9.9.9'],
    });
  });
  afterAll(() => gw.close());

  const handshake = (n: number, remoteAddress: string, forwardedFor?: string) =>
    gw.app.inject({
      method: 'POST',
      url: '/webhooks/clover',
      remoteAddress,
      payload: JSON.stringify({ verificationCode: `code-${n}` }),
      headers: { 'content-type': 'application/json', ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}) },
    });

  it("one client's handshakes through the trusted proxy spend only that client's budget, and the note names the client", async () => {
    for (let n = 0; n < 3; n += 1) expect((await handshake(n, '10.9.9.9', '192.0.2.10')).statusCode).toBe(200);
    expect((await handshake(3, '10.9.9.9', '192.0.2.10')).statusCode).toBe(429);
    expect((await handshake(4, '10.9.9.9', '192.0.2.11')).statusCode).toBe(200);
    const notes = await gw.notes.listVendorNotes('clover');
    expect(notes.find((note) => note.value === 'code-4')).toMatchObject({
      note: expect.stringMatching(/\(unsigned, from 192\.0\.2\.11\)$/),
    });
  });

  it('an untrusted sender cannot pick the address it is counted against; IPv6 senders count per /64', async () => {
    for (let n = 10; n < 13; n += 1) expect((await handshake(n, '198.51.100.5', `192.0.2.${n}`)).statusCode).toBe(200);
    expect((await handshake(13, '198.51.100.5', '192.0.2.99')).statusCode).toBe(429);
    for (let n = 20; n < 23; n += 1) expect((await handshake(n, `2001:db8:bb:1::${n}`)).statusCode).toBe(200);
    expect((await handshake(23, '2001:db8:bb:1:abcd::1')).statusCode).toBe(429);
  });
});
