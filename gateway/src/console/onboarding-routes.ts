import { GatewayError, parseOrThrow } from '@loyalty-gateway/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DEFAULT_OVERLAP_SECONDS, IdParams, RotateBody, SlugParams } from '../admin/admin-schemas.js';
import type { AdminDeps } from '../admin/admin-types.js';
import { createConnection, rotateConnection, setConnectionActive } from '../admin/connection-routes.js';
import { addOutlet, createMerchant, MerchantParams } from '../admin/merchant-routes.js';
import { createVendor, demoteVendor, listVendorViews, promoteVendor, replaceProviderSettings } from '../admin/vendor-routes.js';
import type { ConsoleMessage } from './console-html.js';
import type { ConsoleSession } from './console-session.js';
import { readOutletChoice, renderConnections, renderNewConnection, renderRotate, renderSecret } from './connections-page.js';
import { renderMerchants } from './merchants-page.js';
import { credentialFormFields, keptSettings, readSetupForm, settingsFormFields, type ConsoleForm } from './setup-form.js';
import { renderSettingsForm, renderVendorChange, renderVendors, type VendorStores } from './vendors-page.js';

/** What every console route shares (console-routes.ts): the session, its one-shot message, answering a page, a failure in words. */
export interface ConsoleKit {
  current(request: FastifyRequest): ConsoleSession;
  takeFlash(session: ConsoleSession): ConsoleMessage | null;
  redirectWith(reply: FastifyReply, session: ConsoleSession, to: string, flash: string): FastifyReply;
  send(reply: FastifyReply, status: number, body: string): FastifyReply;
  failureOf(error: unknown, request: FastifyRequest): { status: number; text: string };
}

const ROUTE = { config: { rateLimit: false as const } };

/** The posted form (the console's form parser gives strings; anything else is no form at all). */
function formOf(body: unknown): ConsoleForm {
  if (!body || typeof body !== 'object' || Buffer.isBuffer(body)) return {};
  return Object.fromEntries(Object.entries(body).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}

/** The named fields as the admin API would receive them: an empty one left out (so it is named as missing), the rest as typed. */
function fieldsOf(form: ConsoleForm, keys: readonly string[]): Record<string, string> {
  return Object.fromEntries(keys.filter((key) => form[key] !== undefined && form[key] !== '').map((key) => [key, form[key]!]));
}

/** A number field typed as a number is sent as one; anything else as typed, for the admin API's schema to name. */
const numberOrText = (value: string): number | string => (/^\s*-?\d+(\.\d+)?\s*$/.test(value) ? Number(value) : value);

const param = <T>(
  schema: { safeParse(v: unknown): { success: true; data: T } | { success: false } },
  params: unknown,
  notFound: GatewayError,
) => {
  const parsed = schema.safeParse(params);
  if (!parsed.success) throw notFound;
  return parsed.data;
};
const vendorSlug = (params: unknown) => param(SlugParams, params, new GatewayError('vendor_not_found')).slug;
const connectionId = (params: unknown) => param(IdParams, params, new GatewayError('connection_not_found')).id;

/**
 * The console's onboarding pages: vendors (create, provider settings, promote and demote after a
 * confirmation that counts the stores affected), merchants and outlets, connections (create with
 * the secret shown once, rotate with an overlap, activate, deactivate). Every write calls the admin
 * API's own function, so a refusal is the admin API's, in its words, and nothing is written.
 */
export function registerOnboardingRoutes(scope: FastifyInstance, deps: AdminDeps, kit: ConsoleKit): void {
  const { current, takeFlash, redirectWith, send, failureOf } = kit;
  const refused = (error: unknown, request: FastifyRequest): { status: number; message: ConsoleMessage } => {
    const { status, text } = failureOf(error, request);
    return { status, message: { kind: 'error', text } };
  };

  // ---- vendors
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

  // ---- merchants
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

  // ---- connections
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
