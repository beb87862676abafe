import type { FastifyReply, FastifyRequest } from 'fastify';
import { failureCauseOf } from '../journal/failure-cause-of.js';
import { renderError } from './error-body.js';
import { REQUEST_ID_HEADER } from './request-id.js';
import './fastify-types.js';

/** Render any failure as the spec's Error body on this reply (the one place errors are written). */
export function sendError(error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const { body, headers, fault } = renderError(error, request.id);
  if (fault) request.log.error({ err: error, code: body.code }, 'request failed');
  request.audit = {
    ...request.audit,
    outcome: body.code,
    // A featured batch that failed is counted by its error (gateway_earn_outcomes_total), not its events.
    outcomes: undefined,
    ...('fields' in body && Array.isArray(body.fields) ? { fields: body.fields } : {}),
    // A failure on our side says why in the journal: the cause noted where it was raised, or what the error tells.
    ...(body.statusCode >= 500 ? { failure: failureCauseOf(error, body.code) } : {}),
  };
  reply.header(REQUEST_ID_HEADER, request.id);
  if (headers) reply.headers(headers);
  return reply.code(body.statusCode).type('application/json; charset=utf-8').send(body);
}
