import { AUTH_HEADERS, GatewayError, checkTimestamp, verifyV1, type Connection, type ConnectionStore } from '@loyalty-gateway/core';
import type { IncomingHttpHeaders } from 'node:http';

const NON_ASCII = /[^\x00-\x7F]/;

/**
 * A header value as the vendor meant it. Node reads header bytes as latin1; a store id the
 * merchant typed with accents arrives as UTF-8 bytes, so non-ASCII values are decoded as UTF-8.
 */
function headerText(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  if (typeof value !== 'string' || value === '') return undefined;
  return NON_ASCII.test(value) ? Buffer.from(value, 'latin1').toString('utf8') : value;
}

/** Step 1: X-Service-Vendor + X-Service-Store → an active connection, or 401 unknown_connection. */
export async function resolveConnection(headers: IncomingHttpHeaders, store: ConnectionStore): Promise<Connection> {
  const vendor = headerText(headers, AUTH_HEADERS.vendor);
  if (vendor === undefined) {
    throw new GatewayError('unknown_connection', { message: 'The X-Service-Vendor header is missing.' });
  }
  const storeId = headerText(headers, AUTH_HEADERS.store);
  if (storeId === undefined) {
    throw new GatewayError('unknown_connection', { message: 'The X-Service-Store header is missing.' });
  }
  const connection = await store.find(vendor, storeId);
  if (connection === null || !connection.active || connection.secrets.length === 0) {
    throw new GatewayError('unknown_connection');
  }
  return connection;
}

/** Step 2: X-Service-Timestamp within ±300 s of the server clock, or 401 stale_timestamp. */
export function assertFreshTimestamp(headers: IncomingHttpHeaders, nowSeconds: number): string {
  const value = headers[AUTH_HEADERS.timestamp];
  const timestamp = typeof value === 'string' ? value : undefined;
  const verdict = checkTimestamp(timestamp, nowSeconds);
  if (verdict === 'ok') return timestamp as string;
  const message =
    verdict === 'missing'
      ? 'The X-Service-Timestamp header is missing.'
      : verdict === 'malformed'
        ? 'X-Service-Timestamp must be Unix epoch seconds as a decimal string.'
        : 'X-Service-Timestamp is more than 300 seconds from server time. Synchronise the clock.';
  throw new GatewayError('stale_timestamp', { message });
}

/** Step 3: v1 HMAC over the exact raw bytes with any of the connection's secrets, or 401 bad_signature. */
export function assertSignature(connection: Connection, headers: IncomingHttpHeaders, timestamp: string, body: Buffer): void {
  const signature = headers[AUTH_HEADERS.signature];
  if (typeof signature !== 'string' || !verifyV1(connection.secrets, timestamp, body, signature)) {
    throw new GatewayError('bad_signature', typeof signature === 'string' ? {} : { message: 'The X-Service-Signature header is missing.' });
  }
}
