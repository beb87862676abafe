import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_PREFIX = 'v1=';
export const TIMESTAMP_TOLERANCE_SECONDS = 300;

export const AUTH_HEADERS = {
  vendor: 'x-service-vendor',
  store: 'x-service-store',
  timestamp: 'x-service-timestamp',
  signature: 'x-service-signature',
} as const;

function digest(secret: string, timestamp: string, body: Buffer | string): Buffer {
  // Three updates rather than one concatenated string: no copy of the body.
  return createHmac('sha256', secret).update(timestamp).update('.').update(body).digest();
}

/** `v1=` + base64(HMAC-SHA256(timestamp + "." + rawBody, secret)). */
export function signV1(secret: string, timestamp: string | number, body: Buffer | string): string {
  return SIGNATURE_PREFIX + digest(secret, String(timestamp), body).toString('base64');
}

/** The four headers a vendor sends, signed now (or at `nowSeconds`). */
export function signedHeaders(input: {
  vendor: string;
  store: string;
  secret: string;
  body: Buffer | string;
  nowSeconds?: number;
}): Record<string, string> {
  const timestamp = String(input.nowSeconds ?? Math.floor(Date.now() / 1000));
  return {
    'X-Service-Vendor': input.vendor,
    'X-Service-Store': input.store,
    'X-Service-Timestamp': timestamp,
    'X-Service-Signature': signV1(input.secret, timestamp, input.body),
  };
}

/** True when `header` is a valid v1 signature of the body under any of `secrets` (constant time). */
export function verifyV1(secrets: readonly string[], timestamp: string, body: Buffer | string, header: string | undefined): boolean {
  if (header === undefined || !header.startsWith(SIGNATURE_PREFIX)) return false;
  const encoded = header.slice(SIGNATURE_PREFIX.length);
  // A SHA-256 digest is 32 bytes: exactly 43 base64 characters and one '='.
  if (!/^[A-Za-z0-9+/]{43}=$/.test(encoded)) return false;
  const given = Buffer.from(encoded, 'base64');
  let ok = false;
  for (const secret of secrets) {
    // Check every secret so the time taken does not tell which one matched.
    if (timingSafeEqual(digest(secret, timestamp, body), given)) ok = true;
  }
  return ok;
}

/** Parse X-Service-Timestamp: decimal Unix seconds within the tolerance of `nowSeconds`. */
export function checkTimestamp(
  value: string | undefined,
  nowSeconds: number,
  tolerance = TIMESTAMP_TOLERANCE_SECONDS,
): 'ok' | 'missing' | 'malformed' | 'stale' {
  if (value === undefined || value === '') return 'missing';
  if (!/^\d{1,12}$/.test(value)) return 'malformed';
  return Math.abs(Number(value) - nowSeconds) > tolerance ? 'stale' : 'ok';
}
