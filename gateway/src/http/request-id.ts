import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export const REQUEST_ID_HEADER = 'x-request-id';

/** Printable ASCII, 1 to 128 characters: anything else is replaced by a generated id. */
const ACCEPTABLE = /^[\x20-\x7E]{1,128}$/;

/** Fastify `genReqId`: the caller's X-Request-ID when acceptable, a random UUID otherwise. */
export function requestId(req: IncomingMessage): string {
  const given = req.headers[REQUEST_ID_HEADER];
  return typeof given === 'string' && ACCEPTABLE.test(given) ? given : randomUUID();
}
