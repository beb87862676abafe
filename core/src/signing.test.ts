import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checkTimestamp, signV1, signedHeaders, verifyV1 } from './signing.js';

const body = Buffer.from('{"eventId":"e-1","n":1.10}');

describe('v1 signatures', () => {
  it('is v1= base64 HMAC-SHA256 of "timestamp.rawBody" (independent computation)', () => {
    const expected = createHmac('sha256', 'whsec_test').update(`1700000000.${body.toString()}`).digest('base64');
    expect(signV1('whsec_test', '1700000000', body)).toBe(`v1=${expected}`);
  });

  it('verifies with any of several secrets (rotation overlap)', () => {
    const header = signV1('new', '1700000000', body);
    expect(verifyV1(['old', 'new'], '1700000000', body, header)).toBe(true);
    expect(verifyV1(['old'], '1700000000', body, header)).toBe(false);
  });

  it('fails when the body is re-serialised, the timestamp changes, or the header is malformed', () => {
    const header = signV1('s', '1700000000', body);
    const reserialised = Buffer.from(JSON.stringify(JSON.parse(body.toString())));
    expect(verifyV1(['s'], '1700000000', reserialised, header)).toBe(false);
    expect(verifyV1(['s'], '1700000001', body, header)).toBe(false);
    expect(verifyV1(['s'], '1700000000', body, undefined)).toBe(false);
    expect(verifyV1(['s'], '1700000000', body, header.slice(3))).toBe(false);
    expect(verifyV1(['s'], '1700000000', body, `v2=${header.slice(3)}`)).toBe(false);
    expect(verifyV1(['s'], '1700000000', body, `${header} `)).toBe(false);
    expect(verifyV1(['s'], '1700000000', body, 'v1=')).toBe(false);
    expect(verifyV1([], '1700000000', body, header)).toBe(false);
  });

  it('signedHeaders produces the four headers a vendor sends', () => {
    const headers = signedHeaders({ vendor: 'acme', store: 'S 1/a', secret: 's', body, nowSeconds: 1700000000 });
    expect(headers).toEqual({
      'X-Service-Vendor': 'acme',
      'X-Service-Store': 'S 1/a',
      'X-Service-Timestamp': '1700000000',
      'X-Service-Signature': signV1('s', '1700000000', body),
    });
  });
});

describe('checkTimestamp', () => {
  const now = 1_700_000_000;
  it.each([
    [String(now), 'ok'],
    [String(now - 300), 'ok'],
    [String(now + 300), 'ok'],
    [String(now - 301), 'stale'],
    [String(now + 301), 'stale'],
    [undefined, 'missing'],
    ['', 'missing'],
    ['1700000000.5', 'malformed'],
    ['-5', 'malformed'],
    ['abc', 'malformed'],
    ['2023-11-14T22:13:20Z', 'malformed'],
  ])('%s → %s', (value, expected) => {
    expect(checkTimestamp(value, now)).toBe(expected);
  });
});
