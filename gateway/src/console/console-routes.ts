import { createHash } from 'node:crypto';
import { constantTimeEqual, GatewayError } from '@loyalty-gateway/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import '../http/fastify-types.js';
import { renderError } from '../http/error-body.js';
import { DeliveriesQuery, IdParams } from '../admin/admin-schemas.js';
import type { AdminDeps } from '../admin/admin-types.js';
import { replayDelivery, showDelivery } from '../admin/delivery-routes.js';
import { readQuery } from '../admin/read-admin-body.js';
import { html } from '../directory/html.js';
import { CONSOLE_COPY_SCRIPT, CONSOLE_COPY_SCRIPT_PATH } from './console-copy-script.js';
import { consolePage, renderSignIn, type ConsoleMessage } from './console-html.js';
import { renderRuns } from './console-pages.js';
import { DELIVERY_FILTERS, renderDeliveries, type DeliveryFilterValues } from './deliveries-page.js';
import { renderDelivery } from './delivery-page.js';
import { registerOnboardingRoutes } from './onboarding-routes.js';
import { registerTryPayloadRoutes } from './try-payload-routes.js';
import {
  ConsoleSessions,
  csrfMatches,
  readCookie,
  SESSION_COOKIE,
  SESSION_TTL_MS,
  sessionCookie,
  type ConsoleSession,
} from './console-session.js';

export interface ConsoleDeps extends AdminDeps {
  /** GATEWAY_ADMIN_TOKEN: what signs an operator in. */
  token: string;
  /** Where sessions live: the gateway's database, shared by every process. */
  sessions: ConsoleSessions;
}

const HTML = 'text/html; charset=utf-8';
const ROUTE = { config: { rateLimit: false as const } };
const SIGN_IN = '/console/sign-in';
const PAGE_SIZE = 50;
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

const send = (reply: FastifyReply, status: number, body: string) => reply.code(status).type(HTML).send(body);

/** A failure in plain words (GatewayError messages as they are; anything else without internals) and its status. */
function failureOf(error: unknown, request: FastifyRequest): { status: number; text: string } {
  const { body, fault } = renderError(error, request.id);
  if (fault) request.log.error({ err: error, code: body.code }, 'console request failed');
  const text =
    body.code === 'internal_error' ? `${body.message} (request id ${request.id}; the gateway's log has the details)` : body.message;
  return { status: body.statusCode, text };
}

const fieldOf = (body: unknown, name: string): unknown =>
  body && typeof body === 'object' ? (body as Record<string, unknown>)[name] : undefined;

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

      scope.get('/assets/copy.js', ROUTE, async (_request, reply) =>
        reply.headers({ 'cache-control': 'public, max-age=86400' }).type('text/javascript; charset=utf-8').send(CONSOLE_COPY_SCRIPT),
      );

      // ---- sign-in / sign-out
      scope.get('/sign-in', ROUTE, async (request, reply) => {
        if (await sessions.get(readCookie(request.headers.cookie, SESSION_COOKIE))) return reply.redirect('/console', 303);
        return send(reply, 200, renderSignIn(null));
      });

      scope.post('/sign-in', ROUTE, async (request, reply) => {
        const given = fieldOf(request.body, 'token');
        if (typeof given !== 'string' || !constantTimeEqual(given, deps.token)) {
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

      scope.post('/sign-out', ROUTE, async (request, reply) => {
        const session = current(request);
        await sessions.destroy(session.id);
        sessionOf.delete(request);
        request.log.info({ session: sessionTag(session) }, 'console session ended');
        reply.header('set-cookie', sessionCookie('', { secure: request.protocol === 'https', maxAgeSeconds: 0 }));
        return reply.redirect(SIGN_IN, 303);
      });

      // ---- deliveries
      scope.get('/', ROUTE, async (request, reply) => {
        const session = current(request);
        const query = (request.query ?? {}) as Record<string, unknown>;
        const filters: DeliveryFilterValues = {};
        for (const key of [...DELIVERY_FILTERS.map(([name]) => name), 'nothingEarned' as const]) {
          const value = query[key];
          if (typeof value === 'string' && value.trim() !== '') filters[key] = value.trim();
        }
        const cursor = typeof query.cursor === 'string' && query.cursor !== '' ? query.cursor : undefined;
        const render = (status: number, extra: Partial<Parameters<typeof renderDeliveries>[0]>) =>
          send(
            reply,
            status,
            renderDeliveries({
              session,
              filters,
              deliveries: null,
              nextHref: null,
              journalMounted: deps.journal !== undefined,
              message: takeFlash(session),
              ...extra,
            }),
          );
        if (!deps.journal) return render(200, {});
        try {
          if (filters.requestId) {
            await deps.journal.flush();
            // The journal id, or the request id (X-Request-ID) support was given: every delivery carrying
            // it, each with its vendor and store (anyone may send a vendor's request id again). The
            // kept request is never shown.
            const found = await deps.journal.get(filters.requestId);
            const deliveries =
              found && found.id === filters.requestId
                ? [withoutRequest(found)]
                : (await deps.journal.list({ requestId: filters.requestId, limit: PAGE_SIZE })).deliveries;
            return render(200, { deliveries });
          }
          const { requestId: _unused, ...listed } = filters;
          const filter = readQuery(DeliveriesQuery, { ...listed, ...(cursor ? { cursor } : {}), limit: String(PAGE_SIZE) });
          await deps.journal.flush();
          const page = await deps.journal.list(filter);
          const nextHref = page.nextCursor ? `/console?${new URLSearchParams({ ...listed, cursor: page.nextCursor }).toString()}` : null;
          return render(200, { deliveries: page.deliveries, nextHref, searchedBackTo: page.searchedBackTo });
        } catch (error) {
          const { status, text } = failureOf(error, request);
          return render(status, { message: { kind: 'error', text } });
        }
      });

      const deliveryId = (params: unknown): string => {
        const parsed = IdParams.safeParse(params);
        if (!parsed.success) throw new GatewayError('delivery_not_found');
        return parsed.data.id;
      };

      scope.get('/deliveries/:id', ROUTE, async (request, reply) => {
        const session = current(request);
        const shown = await showDelivery(deps, deliveryId(request.params));
        return send(reply, 200, renderDelivery({ session, message: takeFlash(session), ...shown }));
      });

      scope.post('/deliveries/:id/replay', ROUTE, async (request, reply) => {
        const session = current(request);
        const id = deliveryId(request.params);
        try {
          // "Replay anyway": past a revoked secret or a deactivated connection, journalled as forced.
          const force = fieldOf(request.body, 'force') === '1';
          const { replay, outcome } = await replayDelivery(deps, id, `console:${sessionTag(session)}`, request.log, { force });
          return redirectWith(
            reply,
            session,
            `/console/deliveries/${encodeURIComponent(replay.replayOf)}`,
            `Replayed as ${replay.requestId}: ${outcome ?? 'done'}.`,
          );
        } catch (error) {
          const { status, text } = failureOf(error, request);
          const shown = await showDelivery(deps, id);
          return send(reply, status, renderDelivery({ session, message: { kind: 'error', text: `The replay failed: ${text}` }, ...shown }));
        }
      });

      // ---- vendors, merchants, connections: onboarding through the admin API's own functions
      registerOnboardingRoutes(scope, deps, { current, takeFlash, redirectWith, send, failureOf });
      registerTryPayloadRoutes(scope, deps, { current, takeFlash, redirectWith, send, failureOf });

      // ---- runs
      scope.get('/runs', ROUTE, async (request, reply) => {
        const session = current(request);
        const [catalogRuns, reconcileRuns] = await Promise.all([
          deps.runs.list({ limit: PAGE_SIZE }),
          deps.reconciler ? deps.reconciler.runs.list({ limit: PAGE_SIZE }) : null,
        ]);
        return send(reply, 200, renderRuns({ session, message: takeFlash(session), catalogRuns, reconcileRuns }));
      });
    },
    { prefix: '/console' },
  );
}

function withoutRequest<T extends { request: unknown; matches: unknown; ambiguous: unknown }>(
  found: T,
): Omit<T, 'request' | 'matches' | 'ambiguous'> {
  const { request: _kept, matches: _matches, ambiguous: _ambiguous, ...delivery } = found;
  return delivery;
}

/** A short, non-secret name for a session in logs and the journal's `replayedBy`. */
function sessionTag(session: ConsoleSession): string {
  return createHash('sha256').update(session.id).digest('hex').slice(0, 12);
}
