import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { NativeRequest } from '../native-request.js';
import { HmacScheme } from './scheme.js';
import { verifyHmac } from './verify-hmac.js';

const body = Buffer.from('{"id":820982911946154508,"total_price":"403.00"}');
const req = (headers: Record<string, string>, url = 'https://gw.example.com/webhooks/square'): NativeRequest => ({
  method: 'POST',
  url,
  headers,
  rawBody: body,
  remoteAddress: '127.0.0.1',
});
const now = 1_700_000_000;

describe('verifyHmac recipes (digests computed independently here)', () => {
  it('raw body, SHA-256, base64 (Shopify-style), with rotation', () => {
    const scheme = HmacScheme.parse({ kind: 'hmac', header: 'X-Shopify-Hmac-Sha256', secret: { from: 'settings', key: 'appSecret' } });
    const digest = createHmac('sha256', 'new-secret').update(body).digest('base64');
    expect(verifyHmac(scheme, ['old-secret', 'new-secret'], req({ 'x-shopify-hmac-sha256': digest }), now)).toEqual({ ok: true });
    expect(verifyHmac(scheme, ['old-secret'], req({ 'x-shopify-hmac-sha256': digest }), now)).toMatchObject({
      ok: false,
      reason: 'bad_signature',
    });
    expect(verifyHmac(scheme, ['new-secret'], req({}), now)).toMatchObject({ ok: false, reason: 'missing_credentials' });
  });

  it('notification URL + body (Square-style): the URL must match byte for byte', () => {
    const scheme = HmacScheme.parse({
      kind: 'hmac',
      header: 'x-square-hmacsha256-signature',
      signed: 'url+body',
      secret: { from: 'settings', key: 'signatureKey' },
    });
    const url = 'https://gw.example.com/webhooks/square';
    const digest = createHmac('sha256', 'key')
      .update(url + body.toString())
      .digest('base64');
    expect(verifyHmac(scheme, ['key'], req({ 'x-square-hmacsha256-signature': digest }, url), now).ok).toBe(true);
    expect(verifyHmac(scheme, ['key'], req({ 'x-square-hmacsha256-signature': digest }, `${url}/`), now).ok).toBe(false);
  });

  it('SHA-1 hex with a prefix, case-insensitive hex', () => {
    const scheme = HmacScheme.parse({
      kind: 'hmac',
      header: 'x-hub-signature',
      prefix: 'sha1=',
      algorithm: 'sha1',
      encoding: 'hex',
      secret: { from: 'connection' },
    });
    const digest = createHmac('sha1', 's').update(body).digest('hex');
    expect(verifyHmac(scheme, ['s'], req({ 'x-hub-signature': `sha1=${digest.toUpperCase()}` }), now).ok).toBe(true);
    expect(verifyHmac(scheme, ['s'], req({ 'x-hub-signature': digest }), now)).toMatchObject({ ok: false, reason: 'bad_signature' });
  });

  it('timestamp + body with a tolerance window', () => {
    const scheme = HmacScheme.parse({
      kind: 'hmac',
      header: 'x-sig',
      timestampHeader: 'x-ts',
      signed: 'timestamp+body',
      encoding: 'hex',
      secret: { from: 'connection' },
    });
    const sign = (ts: number) => createHmac('sha256', 's').update(`${ts}.${body.toString()}`).digest('hex');
    expect(verifyHmac(scheme, ['s'], req({ 'x-sig': sign(now), 'x-ts': String(now) }), now).ok).toBe(true);
    expect(verifyHmac(scheme, ['s'], req({ 'x-sig': sign(now - 301), 'x-ts': String(now - 301) }), now)).toMatchObject({
      ok: false,
      reason: 'stale_timestamp',
    });
    expect(verifyHmac(scheme, ['s'], req({ 'x-sig': sign(now), 'x-ts': String(now + 1) }), now)).toMatchObject({
      ok: false,
      reason: 'bad_signature',
    });
  });

  it('refuses when no secret is configured', () => {
    const scheme = HmacScheme.parse({ kind: 'hmac', header: 'x-sig', secret: { from: 'connection' } });
    expect(verifyHmac(scheme, [], req({ 'x-sig': 'abc' }), now)).toMatchObject({ ok: false, reason: 'missing_credentials' });
  });
});
