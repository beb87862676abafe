import { GatewayError, parseOrThrow, savedUrlProblems, type AnyAdapter, type FieldError } from '@loyalty-gateway/core';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { IGNORED_SETTINGS_KEYS, parseProviderSettings, type ProviderSettingsContext } from '../featured/index.js';
import type { Vendor } from '../stores/index.js';
import { EmptyBody, NewVendor, RenameVendor, SecretObject } from './admin-schemas.js';
import { ADMIN_ROUTE, type AdminDeps } from './admin-types.js';
import { vendorView } from './admin-views.js';
import { parseJsonObject } from '../webhooks/read-envelope.js';
import { readOptionalBody, slugParam } from './read-admin-body.js';
import { readJsonBody } from '../webhooks/read-envelope.js';
import { storeCall } from './store-error.js';

/** The adapter's schema and the URL check may name the same problem (VendorApiBaseUrl): once. */
const uniqueFields = (fields: FieldError[]) =>
  fields.filter((f, i) => fields.findIndex((g) => g.path === f.path && g.message === f.message) === i);

const summaryOf = (v: Vendor) => ({ slug: v.slug, name: v.name, tier: v.tier, hasSettings: v.settings !== null });

/**
 * Promotion needs provider settings the adapter accepts on this gateway (the same check, with the
 * same context, as `PUT …/settings`: mTLS `direct` needs an HTTPS listener): a featured door
 * without them could only answer 500 or 401 to every delivery (and the vendor would retry
 * forever). 422 invalid_settings naming what is missing, and how to set it. Stored keys the
 * adapter does not know are ignored, as the door ignores them, and returned to be logged.
 */
function requireUsableSettings(adapter: AnyAdapter, settings: Record<string, unknown> | null, context: ProviderSettingsContext): string[] {
  const checked = parseProviderSettings(adapter, settings ?? {}, context);
  if (checked.ok) return checked.ignoredKeys;
  const problems = checked.fields.map((f) => `${f.path} ${f.message}`).join('; ');
  throw new GatewayError('invalid_settings', {
    message: `${adapter.display.name} cannot be promoted until its provider settings fit its adapter (${settings ? problems : 'none are set'}): PUT /admin/vendors/${adapter.slug}/settings first.`,
    fields: checked.fields,
  });
}

type VendorDeps = Pick<AdminDeps, 'store' | 'adapters' | 'adapterOf' | 'tlsListener' | 'vendorChanged'>;

/** Every vendor row, then every registered adapter without one (`exists: false`), so product sees what can be promoted. */
export async function listVendorViews(deps: VendorDeps) {
  const vendors = await deps.store.listVendors();
  // Settings are decrypted only where they can hold a schedule override (an adapter with a catalog pull).
  const settingsOf = async (v: (typeof vendors)[number]) =>
    v.hasSettings && deps.adapterOf(v.slug)?.catalog ? (await deps.store.getVendor(v.slug))?.settings : null;
  const listed = await Promise.all(vendors.map(async (v) => vendorView(v, deps.adapterOf(v.slug), await settingsOf(v))));
  const known = new Set(vendors.map((v) => v.slug));
  const unlisted = deps.adapters
    .filter((a) => !known.has(a.slug))
    .map((a) => ({ ...vendorView({ slug: a.slug, name: a.display.name, tier: 'generic', hasSettings: false }, a), exists: false }));
  return [...listed.map((v) => ({ ...v, exists: true })), ...unlisted];
}

/** generic → featured: needs a registered adapter and usable settings (checked before anything is written). */
export async function promoteVendor(deps: VendorDeps, slug: string, log: Pick<FastifyBaseLogger, 'info' | 'warn'>) {
  const adapter = deps.adapterOf(slug);
  if (!adapter)
    throw new GatewayError('adapter_not_registered', {
      message: `This gateway has no featured adapter for "${slug}", so it cannot be promoted; its vendors keep using /webhooks/generic.`,
    });
  // Checked before anything is written: a refused promotion leaves no trace.
  const existing = await deps.store.getVendor(slug);
  const ignoredKeys = requireUsableSettings(adapter, existing?.settings ?? null, { tlsListener: deps.tlsListener });
  if (ignoredKeys.length > 0) log.warn({ vendor: slug, ignoredKeys }, IGNORED_SETTINGS_KEYS);
  // A registered adapter whose vendor was never seeded is created from the adapter's display name
  // (possible only for an adapter whose settings schema accepts none).
  if (!existing) await deps.store.ensureVendor({ slug, name: adapter.display.name, tier: 'generic' });
  const vendor = await storeCall(() => deps.store.setVendorTier(slug, 'featured'));
  await deps.vendorChanged();
  log.info({ vendor: slug }, 'vendor promoted to featured');
  return vendorView(summaryOf(vendor), adapter, vendor.settings);
}

/** featured → generic. */
export async function demoteVendor(deps: VendorDeps, slug: string, log: Pick<FastifyBaseLogger, 'info'>) {
  const vendor = await storeCall(() => deps.store.setVendorTier(slug, 'generic'));
  await deps.vendorChanged();
  log.info({ vendor: slug }, 'vendor demoted to generic');
  return vendorView(summaryOf(vendor), deps.adapterOf(slug), vendor.settings);
}

/** A generic vendor, onboarded without a seed file; 409 vendor_exists when the slug is taken. The admin API and the console both create through it. */
export async function createVendor(deps: VendorDeps, body: unknown, log: Pick<FastifyBaseLogger, 'info'>) {
  const { slug, name } = parseOrThrow(NewVendor, body);
  const { vendor, created } = await storeCall(() => deps.store.ensureVendor({ slug, name, tier: 'generic' }));
  if (!created)
    throw new GatewayError('vendor_exists', {
      message: `A vendor with the slug "${slug}" already exists (${vendor.name}, ${vendor.tier}): rename it with PATCH /admin/vendors/${slug}.`,
    });
  log.info({ vendor: slug }, 'vendor created');
  return { ...vendorView(summaryOf(vendor), deps.adapterOf(slug), vendor.settings), exists: true };
}

/**
 * Replaces a vendor's provider settings, validated by its adapter (unknown keys refused by name)
 * and every URL in them checked; never echoed back. The admin API's PUT and the console's
 * settings form both write through it.
 */
export async function replaceProviderSettings(deps: VendorDeps, slug: string, body: unknown, log: Pick<FastifyBaseLogger, 'info'>) {
  const settings = parseOrThrow(SecretObject, body);
  const adapter = deps.adapterOf(slug);
  if (!adapter) {
    if (!(await deps.store.getVendor(slug))) throw new GatewayError('vendor_not_found');
    throw new GatewayError('adapter_not_registered', {
      message: `"${slug}" has no featured adapter: provider settings have nothing to configure.`,
    });
  }
  const checked = parseProviderSettings(adapter, settings, { tlsListener: deps.tlsListener, unknownKeys: 'refuse' });
  // Every URL in them too, whatever the adapter names the field: a metadata or link-local address is never called.
  const fields = uniqueFields([...(checked.ok ? [] : checked.fields), ...savedUrlProblems(settings)]);
  if (fields.length > 0) {
    throw new GatewayError('invalid_settings', {
      message: `The ${adapter.display.name} settings do not fit its adapter: ${fields.map((f) => `${f.path} ${f.message}`).join('; ')}.`,
      fields,
    });
  }
  // Stored as sent (the door re-reads `auth` overrides from it), encrypted at rest. A registered
  // adapter's vendor row is created (generic) if it was never seeded: settings come before promotion.
  await deps.store.ensureVendor({ slug, name: adapter.display.name, tier: 'generic' });
  const vendor = await storeCall(() => deps.store.setVendorSettings(slug, settings));
  // This process's schedules and HTTPS client CAs follow before the answer; other processes within ~10 s.
  await deps.vendorChanged();
  log.info({ vendor: slug, keys: Object.keys(settings) }, 'provider settings replaced');
  return vendorView(summaryOf(vendor), adapter, vendor.settings);
}

/**
 * Vendors: list, promote (generic → featured; needs a registered adapter and usable settings), demote, provider
 * settings (validated by the adapter, never echoed back) and the notes the featured door kept.
 * A tier change is read by this process at once and by others within the store's 5 s cache.
 */
export function registerVendorRoutes(scope: FastifyInstance, deps: AdminDeps): void {
  scope.get('/vendors', ADMIN_ROUTE, async () => ({ vendors: await listVendorViews(deps) }));

  // A generic vendor, onboarded without a seed file: 201; 409 vendor_exists when the slug is taken.
  scope.post('/vendors', ADMIN_ROUTE, async (request, reply) =>
    reply.code(201).send({ vendor: await createVendor(deps, parseJsonObject(request.body), request.log) }),
  );

  scope.patch('/vendors/:slug', ADMIN_ROUTE, async (request) => {
    const slug = slugParam(request.params);
    const { name } = readJsonBody(RenameVendor, request.body);
    const vendor = await storeCall(() => deps.store.setVendorName(slug, name));
    await deps.vendorChanged();
    return { vendor: { ...vendorView(summaryOf(vendor), deps.adapterOf(slug), vendor.settings), exists: true } };
  });

  scope.post('/vendors/:slug/promote', ADMIN_ROUTE, async (request) => {
    const slug = slugParam(request.params);
    readOptionalBody(EmptyBody, request.body);
    return { vendor: await promoteVendor(deps, slug, request.log) };
  });

  scope.post('/vendors/:slug/demote', ADMIN_ROUTE, async (request) => {
    const slug = slugParam(request.params);
    readOptionalBody(EmptyBody, request.body);
    return { vendor: await demoteVendor(deps, slug, request.log) };
  });

  scope.put('/vendors/:slug/settings', ADMIN_ROUTE, async (request) => {
    const slug = slugParam(request.params);
    return { vendor: await replaceProviderSettings(deps, slug, parseJsonObject(request.body), request.log) };
  });

  // A registered adapter's notes are readable before its vendor row exists: Clover's verification
  // call comes when its webhook URL is saved, before the settings that create the row (the runbook's order).
  scope.get('/vendors/:slug/notes', ADMIN_ROUTE, async (request) => {
    const slug = slugParam(request.params);
    if (!deps.adapterOf(slug) && !(await deps.store.getVendor(slug))) throw new GatewayError('vendor_not_found');
    return { notes: await deps.notes.listVendorNotes(slug) };
  });
}
