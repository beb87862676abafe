import type { AnyAdapter } from '@loyalty-gateway/core';
import type { FastifyBaseLogger } from 'fastify';
import { IGNORED_SETTINGS_KEYS, parseProviderSettings, type ProviderSettingsContext } from '../featured/index.js';
import type { GatewayStore } from '../stores/index.js';

/**
 * At start-up, every featured vendor's stored settings against this gateway's configuration (a
 * seed, or settings written under another build): a vendor whose settings cannot verify anything
 * (e.g. mTLS `direct` with no GATEWAY_TLS_PORT) is logged at error, naming the fields, so the
 * operator learns it from the start-up log rather than from a vendor's failed deliveries. Keys a
 * newer build no longer knows are usable (the door ignores them) and logged at warn, naming them.
 * Returns the slugs reported unusable.
 */
export async function reportUnusableSettings(
  store: Pick<GatewayStore, 'listVendors' | 'getVendor'>,
  adapters: readonly AnyAdapter[],
  context: ProviderSettingsContext,
  log: Pick<FastifyBaseLogger, 'error' | 'warn'>,
): Promise<string[]> {
  const reported: string[] = [];
  for (const summary of await store.listVendors()) {
    const adapter = adapters.find((a) => a.slug === summary.slug);
    if (summary.tier !== 'featured' || !adapter) continue;
    const vendor = await store.getVendor(summary.slug);
    const parsed = parseProviderSettings(adapter, vendor?.settings ?? {}, context);
    if (parsed.ok) {
      if (parsed.ignoredKeys.length > 0) log.warn({ vendor: summary.slug, ignoredKeys: parsed.ignoredKeys }, IGNORED_SETTINGS_KEYS);
      continue;
    }
    reported.push(summary.slug);
    log.error(
      { vendor: summary.slug, fields: parsed.fields },
      "featured vendor's provider settings cannot work on this gateway: its webhooks will fail until they are fixed (PUT /admin/vendors/:slug/settings)",
    );
  }
  return reported;
}
