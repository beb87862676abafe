import { GatewayError } from '@loyalty-gateway/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import '../http/fastify-types.js';
import type { AdminDeps } from '../admin/admin-types.js';
import { html } from '../directory/html.js';
import { CONSOLE_COPY_SCRIPT, CONSOLE_COPY_SCRIPT_PATH } from './console-copy-script.js';
import { consolePage, renderSignIn, type ConsoleMessage } from './console-html.js';
import { CONSOLE_ROUTE, failureOf, fieldOf, send, type ConsoleKit } from './console-kit.js';
import { ConsoleSessions, csrfMatches, readCookie, SESSION_COOKIE, type ConsoleSession } from './console-session.js';
import { registerDeliveriesPages } from './deliveries-routes.js';
import { registerConnectionsPages } from './connections-routes.js';
import { registerMerchantsPage } from './merchants-routes.js';
import { registerVendorsPages } from './vendors-routes.js';
import { registerRunsPage } from './runs-routes.js';
import { registerSignIn, SIGN_IN } from './sign-in-routes.js';
import { registerTryPayloadRoutes } from './try-payload-routes.js';

export interface ConsoleDeps extends AdminDeps {
  /** GATEWAY_ADMIN_TOKEN: what signs an operator in. */
  token: string;
  /** Where sessions live: the gateway's database, shared by every process. */
  sessions: ConsoleSessions;
}

const FORM_LIMIT = 16 * 1024;

/** No script at all, nothing from elsewhere, forms post to this origin only, never framed or cached. */
const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; script-src 'self'; img-src data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

/**
 * The operator console under /console: server-rendered pages over the admin API's own building
 * blocks (the delivery journal and replay, connections, vendors, runs). Sign-in with the admin
 * token gives an in-memory session (HttpOnly, SameSite=Strict cookie, 8 h); every form carries
 * the session's CSRF token. Mounted only when an admin token is configured.
 */
export function registerConsole(app: FastifyInstance, deps: ConsoleDeps): void {
  const sessions = deps.sessions;
  const sessionOf = new WeakMap<FastifyRequest, ConsoleSession>();
  /** Sessions whose one-shot message changed in this request: saved before the answer leaves (the next page may be served by another process). */
  const flashChanged = new WeakSet<ConsoleSession>();
  const current = (request: FastifyRequest): ConsoleSession => {
    const session = sessionOf.get(request);
    if (!session) throw new GatewayError('admin_unauthorized');
    return session;
  };
  /** The one-shot message an action left for this page. */
  const takeFlash = (session: ConsoleSession): ConsoleMessage | null => {
    const text = session.flash;
    if (!text) return null;
    session.flash = undefined;
    flashChanged.add(session);
    return { kind: 'notice', text };
  };
  const redirectWith = (reply: FastifyReply, session: ConsoleSession, to: string, flash: string) => {
    session.flash = flash;
    flashChanged.add(session);
    return reply.redirect(to, 303);
  };

  void app.register(
    async (scope) => {
      scope.addContentTypeParser(
        'application/x-www-form-urlencoded',
        { parseAs: 'string', bodyLimit: FORM_LIMIT },
        (_request, body, done) => {
          done(null, Object.fromEntries(new URLSearchParams(String(body))));
        },
      );

      scope.addHook('onRequest', async (request, reply) => {
        reply.headers(SECURITY_HEADERS);
        const path = request.url.split('?', 1)[0];
        // The Copy buttons' script is the same for everyone and says nothing about the gateway.
        if (path === SIGN_IN || path === CONSOLE_COPY_SCRIPT_PATH) return;
        const session = await sessions.get(readCookie(request.headers.cookie, SESSION_COOKIE));
        if (!session) return reply.redirect(SIGN_IN, 303);
        sessionOf.set(request, session);
      });
      scope.addHook('onSend', async (request) => {
        const session = sessionOf.get(request);
        if (session && flashChanged.has(session)) await sessions.setFlash(session.id, session.flash);
      });

      // Every form of a session carries its CSRF token (sign-in has no session yet: it needs the admin token itself).
      scope.addHook('preHandler', async (request, reply) => {
        if (request.method !== 'POST' || request.url.split('?', 1)[0] === SIGN_IN) return;
        const session = current(request);
        if (!csrfMatches(session, fieldOf(request.body, '_csrf'))) {
          return send(
            reply,
            403,
            consolePage(
              {
                title: 'Form expired',
                section: null,
                session,
                message: {
                  kind: 'error',
                  text: 'This form is not from your current console session (or it expired), so nothing was done. Reload the page and try again.',
                },
              },
              html`<p><a href="/console">Back to the console</a></p>`,
            ),
          );
        }
      });

      scope.setErrorHandler((error, request, reply) => {
        const { status, text } = failureOf(error, request);
        const session = sessionOf.get(request);
        if (!session) return send(reply, status, renderSignIn(text));
        return send(
          reply,
          status,
          consolePage(
            { title: status === 404 ? 'Not found' : 'That did not work', section: null, session, message: { kind: 'error', text } },
            html`<p><a href="/console">Back to the console</a></p>`,
          ),
        );
      });

      scope.setNotFoundHandler((request, reply) => {
        const session = sessionOf.get(request);
        if (!session) return reply.redirect(SIGN_IN, 303);
        return send(
          reply,
          404,
          consolePage(
            { title: 'Not found', section: null, session, message: { kind: 'error', text: 'There is no console page at this address.' } },
            html`<p><a href="/console">Back to the console</a></p>`,
          ),
        );
      });

      scope.get('/assets/copy.js', CONSOLE_ROUTE, async (_request, reply) =>
        reply.headers({ 'cache-control': 'public, max-age=86400' }).type('text/javascript; charset=utf-8').send(CONSOLE_COPY_SCRIPT),
      );

      // One module per page; each writes through the admin API's own functions.
      const kit: ConsoleKit = { current, takeFlash, redirectWith, send, failureOf };
      registerSignIn(scope, { token: deps.token, sessions, forget: (request) => sessionOf.delete(request) }, kit);
      registerDeliveriesPages(scope, deps, kit);
      registerVendorsPages(scope, deps, kit);
      registerMerchantsPage(scope, deps, kit);
      registerConnectionsPages(scope, deps, kit);
      registerTryPayloadRoutes(scope, deps, kit);
      registerRunsPage(scope, deps, kit);
    },
    { prefix: '/console' },
  );
}
