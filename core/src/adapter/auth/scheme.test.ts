import { afterAll, describe, expect, it } from 'vitest';
import { createTestPki } from '../../testing/test-certificates.js';
import { AuthScheme } from './scheme.js';

const pki = createTestPki('Scheme CA');
afterAll(() => pki.dispose());
const messages = (input: unknown) => AuthScheme.safeParse(input).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`);

describe('AuthScheme refuses configurations that could never verify', () => {
  it('timestamp+body needs timestampHeader', () => {
    expect(messages({ kind: 'hmac', header: 'x-sig', signed: 'timestamp+body', secret: { from: 'connection' } })).toEqual([
      'timestampHeader: is required when signed is "timestamp+body" (the header carrying the signed timestamp)',
    ]);
    expect(
      AuthScheme.safeParse({
        kind: 'hmac',
        header: 'x-sig',
        signed: 'timestamp+body',
        timestampHeader: 'X-Ts',
        secret: { from: 'connection' },
      }).success,
    ).toBe(true);
  });

  it('an mTLS caPem must hold at least one certificate that parses; pins must be SHA-256 fingerprints', () => {
    expect(messages({ kind: 'mtls', mode: 'proxy', caPem: 'garbage' })).toEqual([
      expect.stringMatching(/^caPem: holds no PEM certificate/),
    ]);
    expect(messages({ kind: 'mtls', mode: 'proxy', caPem: '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----' })).toEqual([
      expect.stringMatching(/^caPem: holds a certificate that does not parse/),
    ]);
    expect(messages({ kind: 'mtls', mode: 'proxy', caPem: pki.caPem, fingerprints: ['not-a-pin'] })).toEqual([
      'fingerprints.0: must be a SHA-256 fingerprint: 64 hex digits, optionally separated by colons',
    ]);
    const pin = 'AB:'.repeat(31) + 'AB';
    expect(
      AuthScheme.safeParse({ kind: 'mtls', mode: 'direct', caPem: pki.caPem, fingerprints: [pin, pin.replace(/:/g, '').toLowerCase()] })
        .success,
    ).toBe(true);
  });
});
