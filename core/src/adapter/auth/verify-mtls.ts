import { X509Certificate } from 'node:crypto';
import type { NativeRequest } from '../native-request.js';
import { parsePemBundle } from './pem-bundle.js';
import type { AuthCheck, MtlsScheme } from './scheme.js';

const normaliseFingerprint = (value: string) => value.replace(/[^0-9a-f]/gi, '').toUpperCase();
const normaliseAddress = (value: string) => value.replace(/^::ffff:/, '');

function inValidity(cert: X509Certificate, now: Date): boolean {
  return new Date(cert.validFrom) <= now && now <= new Date(cert.validTo);
}

/**
 * Walk from the leaf up through the presented intermediates to one of the provider's CAs, checking
 * each signature and validity period. Returns null when trusted, else why not.
 */
export function verifyChain(leaf: X509Certificate, intermediates: X509Certificate[], cas: X509Certificate[], now: Date): string | null {
  let current = leaf;
  for (let depth = 0; depth <= intermediates.length; depth += 1) {
    if (!inValidity(current, now)) return `certificate ${current.subject.replace(/\n/g, ', ')} is outside its validity period`;
    const anchor = cas.find((ca) => current.checkIssued(ca) && current.verify(ca.publicKey));
    if (anchor) return inValidity(anchor, now) ? null : 'the provider CA is outside its validity period';
    const next = intermediates.find((c) => c !== current && current.checkIssued(c) && current.verify(c.publicKey) && c.ca);
    if (!next) return "the client certificate was not issued by this provider's CA";
    current = next;
  }
  return 'certificate chain too long';
}

/** id-kp-clientAuth, and anyExtendedKeyUsage. */
const CLIENT_AUTH = '1.3.6.1.5.5.7.3.2';
const ANY_USAGE = '2.5.29.37.0';

/**
 * Why the presented leaf cannot stand for a client, or null: a CA certificate (the provider's CA is
 * public: anyone can present it, and a chain check alone accepts it as its own anchor) or one whose
 * extendedKeyUsage, when it has one, does not include clientAuth.
 */
export function endEntityProblem(leaf: X509Certificate): string | null {
  if (leaf.ca) return 'the presented certificate is a CA certificate, not a client certificate';
  const usages = leaf.keyUsage;
  if (usages && usages.length > 0 && !usages.includes(CLIENT_AUTH) && !usages.includes(ANY_USAGE)) {
    return 'the certificate is not for client authentication (its extendedKeyUsage lacks clientAuth)';
  }
  return null;
}

function presented(scheme: MtlsScheme, request: NativeRequest): { certs: X509Certificate[] } | { error: string } {
  if (scheme.mode === 'direct') {
    const peer = request.peerCertificate;
    if (!peer || peer.raw.length === 0) return { error: 'no client certificate presented' };
    return { certs: [new X509Certificate(peer.raw), ...peer.chain.map((der) => new X509Certificate(der))] };
  }
  const trusted = scheme.trustedProxies.map(normaliseAddress);
  if (!trusted.includes(normaliseAddress(request.remoteAddress))) {
    return { error: `certificate header not trusted from ${request.remoteAddress}` };
  }
  const header = request.headers[scheme.certificateHeader];
  if (!header) return { error: `missing ${scheme.certificateHeader} header from the proxy` };
  try {
    const certs = parsePemBundle(decodeURIComponent(header));
    return certs.length > 0 ? { certs } : { error: 'the certificate header holds no PEM certificate' };
  } catch {
    return { error: 'the certificate header is not a readable PEM certificate' };
  }
}

/**
 * mTLS for one provider: the client chain must end in the provider's CA; optional fingerprint pins
 * and subject requirement apply to the leaf. In `direct` mode the gateway's HTTPS listener asked
 * for the certificate; in `proxy` mode the proxy's header is believed only from trusted addresses.
 */
export function verifyMtls(scheme: MtlsScheme, request: NativeRequest, now: Date): AuthCheck {
  const got = presented(scheme, request);
  if ('error' in got) return { ok: false, reason: 'untrusted_certificate', detail: got.error };
  const [leaf, ...rest] = got.certs;
  if (!leaf) return { ok: false, reason: 'untrusted_certificate', detail: 'no client certificate presented' };
  let cas: X509Certificate[];
  try {
    cas = parsePemBundle(scheme.caPem);
  } catch {
    return { ok: false, reason: 'untrusted_certificate', detail: 'the provider CA is not readable PEM' };
  }
  const notClient = endEntityProblem(leaf);
  if (notClient) return { ok: false, reason: 'untrusted_certificate', detail: notClient };
  const chainError = verifyChain(leaf, rest, cas, now);
  if (chainError) return { ok: false, reason: 'untrusted_certificate', detail: chainError };
  if (scheme.fingerprints.length > 0) {
    const pins = scheme.fingerprints.map(normaliseFingerprint);
    if (!pins.includes(normaliseFingerprint(leaf.fingerprint256))) {
      return { ok: false, reason: 'untrusted_certificate', detail: 'certificate fingerprint is not pinned' };
    }
  }
  if (scheme.subject !== undefined && !leaf.subject.split('\n').includes(scheme.subject)) {
    return { ok: false, reason: 'untrusted_certificate', detail: `certificate subject lacks ${scheme.subject}` };
  }
  return { ok: true };
}
