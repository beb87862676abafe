import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export const REQUEST_ID_HEADER = 'x-request-id';

/**
 * Letters, digits and `. _ : -`, 1 to 128 characters: an id support quotes, greps and puts in a
 * URL without escaping. Anything else (spaces, slashes, quotes, markup, non-ASCII) is replaced by
 * a generated id, so a caller's id can never forge a log field or break a console link.
 */
const ACCEPTABLE = /^[A-Za-z0-9._:-]{1,128}$/;

/** Fastify `genReqId`: the caller's X-Request-ID when acceptable, a random UUID otherwise. */
export function requestId(req: IncomingMessage): string {
  const given = req.headers[REQUEST_ID_HEADER];
  return typeof given === 'string' && ACCEPTABLE.test(given) ? given : randomUUID();
}
