import { GatewayError } from '@loyalty-gateway/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AdminDeps } from '../admin/admin-types.js';
import { createVendor, demoteVendor, listVendorViews, promoteVendor, replaceProviderSettings } from '../admin/vendor-routes.js';
import type { ConsoleMessage } from './console-html.js';
import type { ConsoleSession } from './console-session.js';
import { CONSOLE_ROUTE as ROUTE, type ConsoleKit } from './console-kit.js';
import { fieldsOf, formOf, refusedWith, vendorSlug } from './onboarding-forms.js';
import { keptSettings, readSetupForm, settingsFormFields, type ConsoleForm } from './setup-form.js';
import { renderSettingsForm, renderVendorChange, renderVendors, type VendorStores } from './vendors-page.js';

/** The vendors page: create one, its provider settings, promote and demote after a confirmation that counts the stores affected. */
export function registerVendorsPages(scope: FastifyInstance, deps: AdminDeps, kit: ConsoleKit): void {
  const { current, takeFlash, redirectWith, send, failureOf } = kit;
  const refused = refusedWith(failureOf);

  const storesByVendor = async (): Promise<Map<string, VendorStores>> => {
    const stores = new Map<string, VendorStores>();
    for (const c of await deps.store.listConnections()) {
      const counted = stores.get(c.vendor) ?? { total: 0, active: 0 };
      counted.total += 1;
      if (c.active) counted.active += 1;
      stores.set(c.vendor, counted);
    }
    return stores;
  };
  const vendorsPage = async (
    reply: FastifyReply,
    session: ConsoleSession,
    status: number,
    message: ConsoleMessage | null,
    typed?: ConsoleForm,
  ) =>
    send(reply, status, renderVendors({ session, message, vendors: await listVendorViews(deps), stores: await storesByVendor(), typed }));
  const vendorOf = async (slug: string) => {
    const vendor = (await listVendorViews(deps)).find((v) => v.slug === slug);
    if (!vendor) throw new GatewayError('vendor_not_found');
    return vendor;
  };

  scope.get('/vendors', ROUTE, async (request, reply) => {
    const session = current(request);
    return vendorsPage(reply, session, 200, takeFlash(session));
  });

  scope.post('/vendors', ROUTE, async (request, reply) => {
    const session = current(request);
    const form = formOf(request.body);
    try {
      const vendor = await createVendor(deps, fieldsOf(form, ['slug', 'name']), request.log);
      return redirectWith(
        reply,
        session,
        '/console/vendors',
        `${vendor.name} added as a generic vendor (slug ${vendor.slug}): its stores send to /webhooks/generic. Next: a merchant and an outlet, then a connection.`,
      );
    } catch (error) {
      const { status, message } = refused(error, request);
      return vendorsPage(reply, session, status, message, form);
    }
  });

  for (const action of ['promote', 'demote'] as const) {
    scope.get(`/vendors/:slug/${action}`, ROUTE, async (request, reply) => {
      const session = current(request);
      const vendor = await vendorOf(vendorSlug(request.params));
      const stores = (await storesByVendor()).get(vendor.slug) ?? { total: 0, active: 0 };
      return send(reply, 200, renderVendorChange({ session, vendor, action, stores }));
    });
  }

  for (const [action, change] of [
    ['promote', promoteVendor],
    ['demote', demoteVendor],
  ] as const) {
    scope.post(`/vendors/:slug/${action}`, ROUTE, async (request, reply) => {
      const session = current(request);
      try {
        const vendor = await change(deps, vendorSlug(request.params), request.log);
        return redirectWith(reply, session, '/console/vendors', `${vendor.name} is now ${vendor.tier}.`);
      } catch (error) {
        const { status, message } = refused(error, request);
        return vendorsPage(reply, session, status, message);
      }
    });
  }

  const settingsPage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    message: ConsoleMessage | null,
    typed?: ConsoleForm,
  ) => {
    const session = current(request);
    const slug = vendorSlug(request.params);
    const adapter = deps.adapterOf(slug);
    if (!adapter) {
      if (!(await deps.store.getVendor(slug))) throw new GatewayError('vendor_not_found');
      throw new GatewayError('adapter_not_registered', {
        message: `"${slug}" has no featured adapter: provider settings have nothing to configure.`,
      });
    }
    const vendor = await deps.store.getVendor(slug);
    const stored = vendor?.settings ?? null;
    return send(
      reply,
      status,
      renderSettingsForm({
        session,
        message,
        adapter,
        vendorName: vendor?.name ?? adapter.display.name,
        fields: settingsFormFields(adapter),
        stored,
        typed,
        authOverride: stored?.auth !== undefined,
      }),
    );
  };

  scope.get('/vendors/:slug/settings', ROUTE, async (request, reply) => settingsPage(request, reply, 200, takeFlash(current(request))));

  scope.post('/vendors/:slug/settings', ROUTE, async (request, reply) => {
    const session = current(request);
    const slug = vendorSlug(request.params);
    const form = formOf(request.body);
    const adapter = deps.adapterOf(slug);
    try {
      const stored = (await deps.store.getVendor(slug))?.settings ?? null;
      const fields = adapter ? settingsFormFields(adapter) : [];
      const settings = { ...keptSettings(stored, fields), ...readSetupForm(fields, form, { prefix: 'settings', stored }) };
      const vendor = await replaceProviderSettings(deps, slug, settings, request.log);
      return redirectWith(
        reply,
        session,
        '/console/vendors',
        `${vendor.name}'s provider settings are saved${vendor.tier === 'featured' ? '' : ': it can be promoted now'}.`,
      );
    } catch (error) {
      const { status, message } = refused(error, request);
      return settingsPage(request, reply, status, message, form);
    }
  });
}
