import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export const REQUEST_ID_HEADER = 'x-request-id';

/**
 * Letters, digits and `. _ : -`, 1 to 128 characters: an id support quotes, greps and puts in a
 * URL without escaping. Anything else (spaces, slashes, quotes, markup, non-ASCII) is replaced by
 * a generated id, so a caller's id can never forge a log field or break a console link.
 */
const ACCEPTABLE = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * A UUIDv7 (RFC 9562): the millisecond time in the first 48 bits, then 74 random bits (taken from
 * Node's pooled v4 generator, whose variant bits are already v7's). Ids sort by time, so the
 * journal's request-id index is appended to instead of written at random pages (a random UUID
 * per request cost the journal's writer ~4 µs per entry), and logs sort by it too.
 */
export function timeOrderedUuid(now = Date.now()): string {
  const random = randomUUID();
  const time = now.toString(16).padStart(12, '0');
  return `${time.slice(0, 8)}-${time.slice(8, 12)}-7${random.slice(15)}`;
}

/** Fastify `genReqId`: the caller's X-Request-ID when acceptable, a generated UUIDv7 otherwise. */
export function requestId(req: IncomingMessage): string {
  const given = req.headers[REQUEST_ID_HEADER];
  return typeof given === 'string' && ACCEPTABLE.test(given) ? given : timeOrderedUuid();
}
