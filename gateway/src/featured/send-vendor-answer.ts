import {
  answerContentType,
  GatewayError,
  vendorAnswer,
  type AcceptedOutcome,
  type Handshake,
  type NativeRequest,
} from '@loyalty-gateway/core';
import type { FastifyReply } from 'fastify';
import type { DoorDeps, RequestLogger } from './featured-types.js';

type Outcome = { kind: 'accepted'; outcome: AcceptedOutcome } | { kind: 'handshake'; handshake: Handshake };

/**
 * Send the success answer the adapter declares for this outcome (`response`), or the default JSON.
 * An adapter whose answer function throws or names a non-2xx status has a bug: 500, logged with
 * its name (what was processed stays processed; the vendor's retry is answered `duplicate`).
 */
export function sendVendorAnswer(
  reply: FastifyReply,
  deps: Pick<DoorDeps, 'adapter'>,
  outcome: Outcome,
  request: NativeRequest,
  log: RequestLogger,
): FastifyReply {
  let answer;
  try {
    answer = vendorAnswer(deps.adapter.response, outcome, request);
  } catch (error) {
    log.error({ adapter: deps.adapter.slug, err: error }, `the ${deps.adapter.slug} adapter failed to build its ${outcome.kind} answer`);
    throw new GatewayError('internal_error', { cause: error });
  }
  reply.code(answer.status);
  if (answer.status === 204) return reply.send();
  const type = answerContentType(answer);
  if (type) reply.type(type);
  const { body } = answer;
  if (body === undefined) return reply.send();
  return reply.send(typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body));
}
