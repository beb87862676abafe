import { GatewayError } from '@loyalty-gateway/core';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AdminDeps } from '../admin/admin-types.js';
import { addOutlet, createMerchant, MerchantParams } from '../admin/merchant-routes.js';
import type { ConsoleMessage } from './console-html.js';
import type { ConsoleSession } from './console-session.js';
import { CONSOLE_ROUTE as ROUTE, type ConsoleKit } from './console-kit.js';
import { fieldsOf, formOf, numberOrText, param, refusedWith } from './onboarding-forms.js';
import { renderMerchants } from './merchants-page.js';

/** The loyalty engine's merchants and their outlets: add either (the embedded engine's; listed only with a remote one). */
export function registerMerchantsPage(scope: FastifyInstance, deps: AdminDeps, kit: ConsoleKit): void {
  const { current, takeFlash, redirectWith, send, failureOf } = kit;
  const refused = refusedWith(failureOf);

  const merchantsPage = async (
    reply: FastifyReply,
    session: ConsoleSession,
    status: number,
    message: ConsoleMessage | null,
    typed?: Parameters<typeof renderMerchants>[0]['typed'],
  ) =>
    send(
      reply,
      status,
      renderMerchants({ session, message, merchants: await deps.engine.listMerchants(), canCreate: deps.engineSeed !== undefined, typed }),
    );

  scope.get('/merchants', ROUTE, async (request, reply) => {
    const session = current(request);
    return merchantsPage(reply, session, 200, takeFlash(session));
  });

  scope.post('/merchants', ROUTE, async (request, reply) => {
    const session = current(request);
    const form = formOf(request.body);
    try {
      const body: Record<string, unknown> = fieldsOf(form, ['id', 'name', 'currency', 'defaultCountryCode', 'earnRate', 'redemptionRate']);
      for (const key of ['earnRate', 'redemptionRate']) if (typeof body[key] === 'string') body[key] = numberOrText(body[key]);
      const merchant = await createMerchant(deps, body, request.log);
      return redirectWith(
        reply,
        session,
        '/console/merchants',
        `Merchant ${merchant?.name ?? form.name} (${form.id}) added. Next: its first outlet.`,
      );
    } catch (error) {
      const { status, message } = refused(error, request);
      return merchantsPage(reply, session, status, message, { form: 'merchant', fields: form });
    }
  });

  scope.post('/merchants/:id/outlets', ROUTE, async (request, reply) => {
    const session = current(request);
    const form = formOf(request.body);
    const { id } = param(MerchantParams, request.params, new GatewayError('merchant_not_found'));
    try {
      await addOutlet(deps, id, fieldsOf(form, ['id', 'name']), request.log);
      return redirectWith(
        reply,
        session,
        '/console/merchants',
        `Outlet ${form.name} (${form.id}) added to merchant ${id}. Next: a connection.`,
      );
    } catch (error) {
      const { status, message } = refused(error, request);
      return merchantsPage(reply, session, status, message, { form: 'outlet', merchantId: id, fields: form });
    }
  });
}
