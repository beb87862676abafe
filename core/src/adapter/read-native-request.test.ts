import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AuthRefusal } from './auth/auth-refusal.js';
import { AuthScheme } from './auth/scheme.js';
import { defineAdapter } from './define-adapter.js';
import type { NativeRequest } from './native-request.js';
import { readNativeRequest, type RequestAuth } from './read-native-request.js';

const SECRET = 'acme-secret';
const NOW = new Date('2026-01-05T10:00:00Z');

/** An adapter with an unsigned handshake (read before auth), counting how often its payload is parsed. */
function countingAdapter() {
  const parses = { count: 0 };
  const Body = z.looseObject({ store: z.string().optional(), challenge: z.string().optional() }).transform((body) => {
    parses.count += 1;
    return body;
  });
  const adapter = defineAdapter({
    slug: 'acme-read',
    display: { name: 'Acme', description: 'd', category: 'pos', logoSvg: '<svg/>' },
    setup: { storeIdLabel: 'store', steps: [] },
    settings: z.strictObject({ secret: z.string().min(1) }),
    credentials: z.object({}),
    auth: { kind: 'hmac', header: 'x-acme-signature', encoding: 'hex', secret: { from: 'settings', key: 'secret' } },
    native: Body,
    handshake: { auth: 'unsigned', detect: (body) => (body.challenge ? { note: 'setup', value: body.challenge } : null) },
    units: (body) => (body.store ? [{ storeId: body.store, unit: body }] : []),
    map: () => ({ envelopes: [] }),
  });
  return { adapter, parses };
}

const request = (body: string, signed: boolean): NativeRequest => ({
  method: 'POST',
  url: 'https://gw.example.com/webhooks/acme-read',
  headers: signed ? { 'x-acme-signature': createHmac('sha256', SECRET).update(body).digest('hex') } : {},
  rawBody: Buffer.from(body),
  remoteAddress: '127.0.0.1',
});

describe('readNativeRequest for an adapter with an unsigned handshake', () => {
  const auth = (adapter: ReturnType<typeof countingAdapter>['adapter']): RequestAuth => ({
    scheme: adapter.defaultAuth,
    secrets: [SECRET],
  });

  it('decodes and parses an authenticated payload once: the reading done to look for the handshake is reused after auth', () => {
    const { adapter, parses } = countingAdapter();
    const reading = readNativeRequest(adapter, auth(adapter), request('{"store":"s-1"}', true), NOW);
    expect(reading).toMatchObject({ kind: 'units', units: [{ storeId: 's-1' }] });
    expect(parses.count).toBe(1);
  });

  it('keeps the order of checks: the handshake before auth, then auth over the raw bytes, then what the payload says', () => {
    const { adapter, parses } = countingAdapter();
    expect(readNativeRequest(adapter, auth(adapter), request('{"challenge":"c-1"}', false), NOW)).toEqual({
      kind: 'handshake',
      handshake: { note: 'setup', value: 'c-1' },
      signed: false,
    });
    expect(parses.count).toBe(1);
    // Readable or not, an unsigned request that is no handshake is 401, never a 400 describing the payload.
    for (const body of ['{"store":"s-1"}', 'garbage{', '{"store":5}']) {
      expect(() => readNativeRequest(adapter, auth(adapter), request(body, false), NOW)).toThrow(AuthRefusal);
    }
    // Signed and unreadable: now the caller is known, 400 with fields.
    expect(() => readNativeRequest(adapter, auth(adapter), request('{"store":5}', true), NOW)).toThrow(
      expect.objectContaining({ code: 'invalid_native_payload', fields: [expect.objectContaining({ path: 'store' })] }),
    );
    expect(() => readNativeRequest(adapter, auth(adapter), request('garbage{', true), NOW)).toThrow(
      expect.objectContaining({ code: 'invalid_native_payload', message: 'The Acme payload could not be read: the body is not JSON.' }),
    );
  });

  it('an unauthenticated body larger than any handshake is never decoded: 401 without reading it', () => {
    const { adapter, parses } = countingAdapter();
    const big = JSON.stringify({ challenge: 'c-1', padding: 'x'.repeat(1_024 * 1_024 - 100) });
    expect(() => readNativeRequest(adapter, auth(adapter), request(big, false), NOW)).toThrow(AuthRefusal);
    expect(parses.count).toBe(0); // no JSON parse or schema walk: only the HMAC over the bytes
    // A handshake-sized body is still recognised before authentication.
    expect(readNativeRequest(adapter, auth(adapter), request('{"challenge":"c-2"}', false), NOW)).toMatchObject({ kind: 'handshake' });
  });

  it('per-connection: a signed payload it cannot read names no store whose secret could verify it, so 401', () => {
    const { adapter } = countingAdapter();
    const scheme = AuthScheme.parse({ kind: 'hmac', header: 'x-acme-signature', encoding: 'hex', secret: { from: 'connection' } });
    const perConnection: RequestAuth = { scheme, secrets: 'per-connection' };
    expect(() => readNativeRequest(adapter, perConnection, request('{"store":5}', true), NOW)).toThrow(
      expect.objectContaining({ code: 'bad_signature', reason: 'bad_signature', detail: expect.stringContaining('names no store') }),
    );
  });
});
