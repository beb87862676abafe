import { constantTimeEqual } from '@loyalty-gateway/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { renderSignIn } from './console-html.js';
import { CONSOLE_ROUTE, fieldOf, sessionTag, type ConsoleKit } from './console-kit.js';
import { ConsoleSessions, readCookie, SESSION_COOKIE, SESSION_TTL_MS, sessionCookie } from './console-session.js';

export const SIGN_IN = '/console/sign-in';

/** The sign-in page (the admin token gives a session cookie) and signing out. */
export function registerSignIn(
  scope: FastifyInstance,
  options: { token: string; sessions: ConsoleSessions; forget(request: FastifyRequest): void },
  kit: Pick<ConsoleKit, 'current' | 'send'>,
): void {
  const { sessions } = options;
  const { current, send } = kit;

  scope.get('/sign-in', CONSOLE_ROUTE, async (request, reply) => {
    if (await sessions.get(readCookie(request.headers.cookie, SESSION_COOKIE))) return reply.redirect('/console', 303);
    return send(reply, 200, renderSignIn(null));
  });

  scope.post('/sign-in', CONSOLE_ROUTE, async (request, reply) => {
    const given = fieldOf(request.body, 'token');
    if (typeof given !== 'string' || !constantTimeEqual(given, options.token)) {
      request.log.warn('console sign-in refused: wrong admin token');
      return send(reply, 401, renderSignIn("That is not this gateway's admin token. Check GATEWAY_ADMIN_TOKEN and try again."));
    }
    const session = await sessions.create();
    request.log.info({ session: sessionTag(session) }, 'console session started');
    reply.header(
      'set-cookie',
      sessionCookie(session.id, { secure: request.protocol === 'https', maxAgeSeconds: Math.floor(SESSION_TTL_MS / 1000) }),
    );
    return reply.redirect('/console', 303);
  });

  scope.post('/sign-out', CONSOLE_ROUTE, async (request, reply) => {
    const session = current(request);
    await sessions.destroy(session.id);
    options.forget(request);
    request.log.info({ session: sessionTag(session) }, 'console session ended');
    reply.header('set-cookie', sessionCookie('', { secure: request.protocol === 'https', maxAgeSeconds: 0 }));
    return reply.redirect(SIGN_IN, 303);
  });
}
