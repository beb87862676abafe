import { describe, expect, it } from 'vitest';
import type { NativeRequest } from '../native-request.js';
import { constantTimeEqual } from './constant-time.js';
import { StaticHeaderScheme } from './scheme.js';
import { verifyStaticHeader } from './verify-static-header.js';

const req = (headers: Record<string, string>): NativeRequest => ({
  method: 'POST',
  url: 'https://x/',
  headers,
  rawBody: Buffer.alloc(0),
  remoteAddress: '127.0.0.1',
});

describe('verifyStaticHeader', () => {
  const scheme = StaticHeaderScheme.parse({
    kind: 'static-header',
    header: 'X-Clover-Auth',
    secret: { from: 'settings', key: 'authCode' },
  });

  it('accepts any configured token and refuses others, prefixes and near misses', () => {
    expect(verifyStaticHeader(scheme, ['tok-1', 'tok-2'], req({ 'x-clover-auth': 'tok-2' }))).toEqual({ ok: true });
    expect(verifyStaticHeader(scheme, ['tok-1'], req({ 'x-clover-auth': 'tok-' })).ok).toBe(false);
    expect(verifyStaticHeader(scheme, ['tok-1'], req({ 'x-clover-auth': 'tok-1 ' })).ok).toBe(false);
    expect(verifyStaticHeader(scheme, ['tok-1'], req({}))).toMatchObject({ ok: false, reason: 'missing_credentials' });
    expect(verifyStaticHeader(scheme, [], req({ 'x-clover-auth': '' }))).toMatchObject({ ok: false, reason: 'missing_credentials' });
  });

  it('handles a Bearer prefix', () => {
    const bearer = StaticHeaderScheme.parse({
      kind: 'static-header',
      header: 'authorization',
      prefix: 'Bearer ',
      secret: { from: 'connection' },
    });
    expect(verifyStaticHeader(bearer, ['abc'], req({ authorization: 'Bearer abc' })).ok).toBe(true);
    expect(verifyStaticHeader(bearer, ['abc'], req({ authorization: 'abc' })).ok).toBe(false);
  });

  it('constantTimeEqual compares values of different lengths without throwing', () => {
    expect(constantTimeEqual('a', 'a')).toBe(true);
    expect(constantTimeEqual('a', 'ab')).toBe(false);
    expect(constantTimeEqual('', '')).toBe(true);
  });
});
