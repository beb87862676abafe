import { createHmac } from 'node:crypto';
import { checkTimestamp } from '../../signing.js';
import type { NativeRequest } from '../native-request.js';
import { matchesAny } from './constant-time.js';
import type { AuthCheck, HmacScheme } from './scheme.js';

/** The digest a recipe expects for a request under one secret, encoded as the header carries it. */
export function hmacDigest(scheme: HmacScheme, secret: string, request: Pick<NativeRequest, 'url' | 'rawBody' | 'headers'>): string {
  const mac = createHmac(scheme.algorithm, secret);
  if (scheme.signed === 'url+body') mac.update(request.url);
  if (scheme.signed === 'timestamp+body') {
    mac.update(request.headers[scheme.timestampHeader ?? ''] ?? '').update(scheme.separator);
  }
  return mac.update(request.rawBody).digest(scheme.encoding);
}

/** The header value a vendor would send (used by tests, fixtures and the adapter kit). */
export function hmacHeaderValue(scheme: HmacScheme, secret: string, request: Pick<NativeRequest, 'url' | 'rawBody' | 'headers'>): string {
  return scheme.prefix + hmacDigest(scheme, secret, request);
}

/** Verify an HMAC recipe against any of `secrets` (rotation), over the exact raw bytes. */
export function verifyHmac(scheme: HmacScheme, secrets: readonly string[], request: NativeRequest, nowSeconds: number): AuthCheck {
  const header = request.headers[scheme.header];
  if (!header) return { ok: false, reason: 'missing_credentials', detail: `missing ${scheme.header} header` };
  if (secrets.length === 0) return { ok: false, reason: 'missing_credentials', detail: 'no secret configured for this provider' };
  if (scheme.signed === 'timestamp+body') {
    const verdict = checkTimestamp(request.headers[scheme.timestampHeader ?? ''], nowSeconds, scheme.toleranceSeconds);
    if (verdict !== 'ok') return { ok: false, reason: 'stale_timestamp', detail: `timestamp ${verdict}` };
  }
  if (!header.startsWith(scheme.prefix)) return { ok: false, reason: 'bad_signature', detail: `expected prefix ${scheme.prefix}` };
  let given = header.slice(scheme.prefix.length).trim();
  if (scheme.encoding === 'hex') given = given.toLowerCase();
  const expected = secrets.map((secret) => hmacDigest(scheme, secret, request));
  return matchesAny(expected, given) ? { ok: true } : { ok: false, reason: 'bad_signature', detail: 'signature does not match' };
}
