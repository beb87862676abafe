import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { renderError } from '../http/error-body.js';
import type { ConsoleMessage } from './console-html.js';
import type { ConsoleSession } from './console-session.js';

/** What every console page's routes share (console-routes.ts makes it): the session, its one-shot message, answering a page, a failure in words. */
export interface ConsoleKit {
  current(request: FastifyRequest): ConsoleSession;
  takeFlash(session: ConsoleSession): ConsoleMessage | null;
  redirectWith(reply: FastifyReply, session: ConsoleSession, to: string, flash: string): FastifyReply;
  send(reply: FastifyReply, status: number, body: string): FastifyReply;
  failureOf(error: unknown, request: FastifyRequest): { status: number; text: string };
}

/** Every console route: no per-connection rate limit (the console's session is its auth). */
export const CONSOLE_ROUTE = { config: { rateLimit: false as const } };

export const HTML = 'text/html; charset=utf-8';
/** Rows a console list shows per page. */
export const PAGE_SIZE = 50;

export const send = (reply: FastifyReply, status: number, body: string) => reply.code(status).type(HTML).send(body);

/** A failure in plain words (GatewayError messages as they are; anything else without internals) and its status. */
export function failureOf(error: unknown, request: FastifyRequest): { status: number; text: string } {
  const { body, fault } = renderError(error, request.id);
  if (fault) request.log.error({ err: error, code: body.code }, 'console request failed');
  const text =
    body.code === 'internal_error' ? `${body.message} (request id ${request.id}; the gateway's log has the details)` : body.message;
  return { status: body.statusCode, text };
}

export const fieldOf = (body: unknown, name: string): unknown =>
  body && typeof body === 'object' ? (body as Record<string, unknown>)[name] : undefined;

/** A short, non-secret name for a session in logs and the journal's `replayedBy`. */
export function sessionTag(session: ConsoleSession): string {
  return createHash('sha256').update(session.id).digest('hex').slice(0, 12);
}
