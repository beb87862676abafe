import type { FastifyRequest } from 'fastify';
import './fastify-types.js';

/**
 * The request's route options (its URL template and config), read once per request: Fastify's
 * `request.routeOptions` getter builds a new object of twelve fields at every read, and four hooks
 * of every request read it (the refusal limit, the metrics, the journal, the request line). The
 * gateway never sends a request to another route once routed (`reply.callNotFound` would, after
 * the first read: it would then need to clear `routeSeen`).
 */
export function routeOf(request: FastifyRequest): FastifyRequest['routeOptions'] {
  return (request.routeSeen ??= request.routeOptions);
}
