import { X509Certificate } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestPki } from '../../testing/test-certificates.js';
import type { NativeRequest } from '../native-request.js';
import { MtlsScheme } from './scheme.js';
import { verifyMtls } from './verify-mtls.js';

const provider = createTestPki('Provider CA');
const stranger = createTestPki('Stranger CA');
afterAll(() => {
  provider.dispose();
  stranger.dispose();
});
const client = provider.issue('erp.client.example');
const rogue = stranger.issue('erp.client.example');
const der = (pem: string) => new X509Certificate(pem).raw;
// Evaluated per check: a certificate issued inside a test is valid from that second on.
const now = () => new Date();

const direct = (certPem?: string): NativeRequest => ({
  method: 'POST',
  url: 'https://gw/webhooks/erp',
  headers: {},
  rawBody: Buffer.alloc(0),
  remoteAddress: '10.0.0.9',
  ...(certPem ? { peerCertificate: { authorized: true, raw: der(certPem), chain: [] } } : {}),
});
const viaProxy = (certPem: string | undefined, remoteAddress = '127.0.0.1'): NativeRequest => ({
  method: 'POST',
  url: 'https://gw/webhooks/erp',
  rawBody: Buffer.alloc(0),
  remoteAddress,
  headers: certPem ? { 'x-client-cert': encodeURIComponent(certPem) } : {},
});

describe('verifyMtls, direct', () => {
  const scheme = MtlsScheme.parse({ kind: 'mtls', mode: 'direct', caPem: provider.caPem });
  it('accepts a certificate issued by the provider CA', () => {
    expect(verifyMtls(scheme, direct(client.certPem), now())).toEqual({ ok: true });
  });
  it('refuses no certificate, another CA, and an expired one', () => {
    expect(verifyMtls(scheme, direct(), now())).toMatchObject({ ok: false, reason: 'untrusted_certificate' });
    expect(verifyMtls(scheme, direct(rogue.certPem), now()).ok).toBe(false);
    const later = new Date(Date.now() + 3 * 86_400_000);
    expect(verifyMtls(scheme, direct(client.certPem), later)).toMatchObject({ ok: false });
  });
  it('applies fingerprint pins and a subject requirement', () => {
    const fp = new X509Certificate(client.certPem).fingerprint256;
    const pinned = MtlsScheme.parse({
      kind: 'mtls',
      mode: 'direct',
      caPem: provider.caPem,
      fingerprints: [fp.toLowerCase()],
      subject: 'CN=erp.client.example',
    });
    expect(verifyMtls(pinned, direct(client.certPem), now())).toEqual({ ok: true });
    const other = provider.issue('other.client.example');
    expect(verifyMtls(pinned, direct(other.certPem), now())).toMatchObject({ ok: false, detail: 'certificate fingerprint is not pinned' });
    const subjectOnly = MtlsScheme.parse({ kind: 'mtls', mode: 'direct', caPem: provider.caPem, subject: 'CN=erp.client.example' });
    expect(verifyMtls(subjectOnly, direct(other.certPem), now()).ok).toBe(false);
  });
});

describe('verifyMtls: only an end-entity client certificate authenticates', () => {
  const schemes = [
    MtlsScheme.parse({ kind: 'mtls', mode: 'direct', caPem: provider.caPem }),
    MtlsScheme.parse({ kind: 'mtls', mode: 'proxy', caPem: provider.caPem, trustedProxies: ['127.0.0.1'] }),
  ];
  const presenting = (scheme: MtlsScheme, certPem: string) => (scheme.mode === 'direct' ? direct(certPem) : viaProxy(certPem));

  it.each(schemes.map((s) => [s.mode, s] as const))(
    "%s: the provider's CA certificate itself (public, so anyone has it) is refused",
    (_mode, scheme) => {
      expect(verifyMtls(scheme, presenting(scheme, provider.caPem), now())).toMatchObject({
        ok: false,
        reason: 'untrusted_certificate',
        detail: expect.stringContaining('a CA certificate'),
      });
    },
  );

  it.each(schemes.map((s) => [s.mode, s] as const))(
    '%s: a CA-flagged or intermediate certificate, and a serverAuth-only leaf, are refused; clientAuth or no EKU passes',
    (_mode, scheme) => {
      expect(verifyMtls(scheme, presenting(scheme, provider.issue('sub.ca.example', { ca: true }).certPem), now()).ok).toBe(false);
      expect(verifyMtls(scheme, presenting(scheme, provider.intermediate('Provider Intermediate').caPem), now()).ok).toBe(false);
      expect(verifyMtls(scheme, presenting(scheme, provider.issue('web.example', { usage: 'serverAuth' }).certPem), now())).toMatchObject({
        ok: false,
        detail: expect.stringContaining('clientAuth'),
      });
      expect(verifyMtls(scheme, presenting(scheme, provider.issue('erp.example', { usage: 'clientAuth' }).certPem), now())).toEqual({
        ok: true,
      });
      expect(verifyMtls(scheme, presenting(scheme, provider.issue('erp2.example', { usage: 'none' }).certPem), now())).toEqual({
        ok: true,
      });
    },
  );
});

describe('verifyMtls, behind a proxy', () => {
  const scheme = MtlsScheme.parse({ kind: 'mtls', mode: 'proxy', caPem: provider.caPem, trustedProxies: ['127.0.0.1'] });
  it('trusts the forwarded certificate only from a configured proxy address', () => {
    expect(verifyMtls(scheme, viaProxy(client.certPem), now())).toEqual({ ok: true });
    expect(verifyMtls(scheme, viaProxy(client.certPem, '::ffff:127.0.0.1'), now())).toEqual({ ok: true });
    expect(verifyMtls(scheme, viaProxy(client.certPem, '10.1.2.3'), now())).toMatchObject({ ok: false, reason: 'untrusted_certificate' });
  });
  it('refuses a missing, unreadable or foreign certificate', () => {
    expect(verifyMtls(scheme, viaProxy(undefined), now()).ok).toBe(false);
    expect(verifyMtls(scheme, { ...viaProxy(undefined), headers: { 'x-client-cert': 'garbage' } }, now()).ok).toBe(false);
    expect(verifyMtls(scheme, viaProxy(rogue.certPem), now()).ok).toBe(false);
  });
});
