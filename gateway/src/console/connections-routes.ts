import { GatewayError, parseOrThrow } from '@loyalty-gateway/core';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { DEFAULT_OVERLAP_SECONDS, RotateBody } from '../admin/admin-schemas.js';
import type { AdminDeps } from '../admin/admin-types.js';
import { createConnection, rotateConnection, setConnectionActive } from '../admin/connection-routes.js';
import type { ConsoleMessage } from './console-html.js';
import type { ConsoleSession } from './console-session.js';
import { CONSOLE_ROUTE as ROUTE, type ConsoleKit } from './console-kit.js';
import { connectionId, fieldsOf, formOf, numberOrText, refusedWith } from './onboarding-forms.js';
import { readOutletChoice, renderConnections, renderNewConnection, renderRotate, renderSecret } from './connections-page.js';
import { credentialFormFields, readSetupForm, type ConsoleForm } from './setup-form.js';

/** Connections: create one (its secret shown once), rotate its secret with an overlap, activate, deactivate. */
export function registerConnectionsPages(scope: FastifyInstance, deps: AdminDeps, kit: ConsoleKit): void {
  const { current, takeFlash, redirectWith, send, failureOf } = kit;
  const refused = refusedWith(failureOf);

  const connectionsPage = async (reply: FastifyReply, session: ConsoleSession, status: number, message: ConsoleMessage | null) => {
    const [connections, vendors] = await Promise.all([deps.store.listConnections(), deps.store.listVendors()]);
    return send(
      reply,
      status,
      renderConnections({
        session,
        message,
        vendors,
        connections: connections.map((c) => ({ ...c, skew: deps.clockSkew?.of(c.id) ?? null, activity: deps.activity?.of(c.id) ?? null })),
      }),
    );
  };
  const newConnectionPage = async (
    reply: FastifyReply,
    session: ConsoleSession,
    slug: unknown,
    status: number,
    message: ConsoleMessage | null,
    typed?: ConsoleForm,
  ) => {
    const vendor = typeof slug === 'string' && slug !== '' ? await deps.store.getVendor(slug) : null;
    if (!vendor)
      throw new GatewayError('vendor_not_found', {
        message: `No vendor with slug "${String(slug ?? '')}": add it on the Vendors page first.`,
      });
    const adapter = deps.adapterOf(vendor.slug);
    return send(
      reply,
      status,
      renderNewConnection({
        session,
        message,
        vendor,
        adapter,
        credentialFields: adapter ? credentialFormFields(adapter) : [],
        merchants: await deps.engine.listMerchants(),
        typed,
      }),
    );
  };

  scope.get('/connections', ROUTE, async (request, reply) => {
    const session = current(request);
    return connectionsPage(reply, session, 200, takeFlash(session));
  });

  scope.get('/connections/new', ROUTE, async (request, reply) =>
    newConnectionPage(reply, current(request), (request.query as Record<string, unknown> | undefined)?.vendor, 200, null),
  );

  scope.post('/connections', ROUTE, async (request, reply) => {
    const session = current(request);
    const form = formOf(request.body);
    try {
      const adapter = form.vendor ? deps.adapterOf(form.vendor) : undefined;
      const credentials = adapter ? readSetupForm(credentialFormFields(adapter), form, { prefix: 'credentials', stored: null }) : {};
      const created = await createConnection(
        deps,
        {
          ...fieldsOf(form, ['vendor', 'storeId']),
          ...readOutletChoice(form.outlet),
          ...(Object.keys(credentials).length > 0 ? { credentials } : {}),
        },
        request.log,
      );
      const vendor = await deps.store.getVendor(created.connection.vendor);
      return send(
        reply,
        201,
        renderSecret({
          session,
          title: 'Connection created',
          connection: created.connection,
          secret: created.secret,
          notice: created.notice,
          directoryHref: vendor?.tier === 'featured' && adapter ? `/directory/${encodeURIComponent(adapter.slug)}` : undefined,
        }),
      );
    } catch (error) {
      const { status, message } = refused(error, request);
      // The vendor itself is unknown: there is no form to come back to.
      if (!form.vendor || !(await deps.store.getVendor(form.vendor))) return connectionsPage(reply, session, status, message);
      return newConnectionPage(reply, session, form.vendor, status, message, form);
    }
  });

  scope.get('/connections/:id/rotate', ROUTE, async (request, reply) => {
    const session = current(request);
    const connection = await deps.store.getConnection(connectionId(request.params));
    if (!connection) throw new GatewayError('connection_not_found');
    return send(reply, 200, renderRotate({ session, connection }));
  });

  scope.post('/connections/:id/rotate', ROUTE, async (request, reply) => {
    const session = current(request);
    const form = formOf(request.body);
    try {
      // The admin API's own bounds on the overlap (the default when the form sends none).
      const { overlapSeconds } = parseOrThrow(
        RotateBody,
        form.overlapSeconds === undefined ? {} : { overlapSeconds: numberOrText(form.overlapSeconds) },
      );
      const rotated = await rotateConnection(deps, connectionId(request.params), overlapSeconds ?? DEFAULT_OVERLAP_SECONDS, request.log);
      return send(reply, 200, renderSecret({ session, title: 'New secret', ...rotated }));
    } catch (error) {
      const { status, message } = refused(error, request);
      return connectionsPage(reply, session, status, message);
    }
  });

  for (const [action, active] of [
    ['activate', true],
    ['deactivate', false],
  ] as const) {
    scope.post(`/connections/:id/${action}`, ROUTE, async (request, reply) => {
      const session = current(request);
      try {
        const connection = await setConnectionActive(deps, connectionId(request.params), active, request.log);
        return redirectWith(reply, session, '/console/connections', `Connection ${connection.vendor}/${connection.storeId} ${action}d.`);
      } catch (error) {
        const { status, message } = refused(error, request);
        return connectionsPage(reply, session, status, message);
      }
    });
  }
}
