import { toFieldErrors, type AnyAdapter } from '@loyalty-gateway/core';
import type { z } from 'zod';
import { parseProviderSettings } from './provider-settings.js';

export interface SeedIssueLike {
  path: string;
  message: string;
}

interface VendorEntry {
  slug: string;
  tier: 'generic' | 'featured';
  settings?: Record<string, unknown> | undefined;
}

interface ConnectionEntry {
  vendor: string;
  storeId: string;
  secret?: string | undefined;
  credentials?: Record<string, unknown> | undefined;
}

/** Why a store id does not fit the adapter's declared shape (`storeId` schema), or null. */
export function storeIdProblem(adapter: AnyAdapter, storeId: string): string | null {
  const parsed = adapter.storeId?.safeParse(storeId);
  return parsed && !parsed.success ? (parsed.error.issues[0]?.message ?? 'is not a store id of this vendor') : null;
}

/** An adapter's credentials problems, a missing key said as "is required" (the value is never echoed). */
const credentialFields = (error: z.ZodError, given: unknown) => toFieldErrors(given ?? {}, error).fields;

/** `base` + a path relative to it (`(body)` is the root). */
const under = (base: string, relative: string) =>
  relative === '(body)' ? base : relative.startsWith('[') ? `${base}${relative}` : `${base}.${relative}`;

/**
 * The seed's featured-tier rules. A vendor's `settings` are validated by that adapter's own schema
 * (plus the door's `auth` override); a featured vendor needs a registered adapter and settings.
 * A connection's `credentials` (absent counts as `{}`) are validated by its vendor's adapter,
 * whatever the vendor's tier (a promotion must not find them missing); its `secret` may be omitted
 * only for a featured vendor whose scheme does not read secrets from the connection.
 */
export function featuredSeedIssues(
  vendors: readonly VendorEntry[],
  connections: ReadonlyArray<{ at: string; connection: ConnectionEntry }>,
  adapters: readonly AnyAdapter[],
): SeedIssueLike[] {
  const issues: SeedIssueLike[] = [];
  const adapterOf = (slug: string) => adapters.find((a) => a.slug === slug);
  const perConnection = new Map<string, boolean>();
  vendors.forEach((vendor, v) => {
    const at = `vendors[${v}]`;
    const adapter = adapterOf(vendor.slug);
    if (!adapter) {
      perConnection.set(vendor.slug, true);
      if (vendor.tier === 'featured') issues.push({ path: `${at}.tier`, message: `no featured adapter "${vendor.slug}" is registered` });
      if (vendor.settings !== undefined)
        issues.push({ path: `${at}.settings`, message: `only vendors with a featured adapter have settings` });
      return;
    }
    // An adapter whose settings schema accepts none (WooCommerce: each store signs with its own
    // secret) needs no settings entry; any other featured vendor does.
    if (vendor.settings === undefined && (vendor.tier !== 'featured' || !parseProviderSettings(adapter, {}).ok)) {
      if (vendor.tier === 'featured')
        issues.push({ path: `${at}.settings`, message: `required for a featured vendor (${adapter.display.name} provider settings)` });
      perConnection.set(
        vendor.slug,
        vendor.tier !== 'featured' || (adapter.defaultAuth.kind !== 'mtls' && adapter.defaultAuth.secret.from === 'connection'),
      );
      return;
    }
    // The operator's own file, as written now: a key the adapter does not know is refused by name.
    const parsed = parseProviderSettings(adapter, vendor.settings ?? {}, { unknownKeys: 'refuse' });
    if (!parsed.ok) {
      perConnection.set(vendor.slug, false); // reported above; no second issue per connection
      for (const field of parsed.fields) issues.push({ path: under(`${at}.settings`, field.path), message: field.message });
      return;
    }
    perConnection.set(vendor.slug, vendor.tier !== 'featured' || parsed.config.secrets === 'per-connection');
  });
  for (const { at, connection } of connections) {
    const adapter = adapterOf(connection.vendor);
    if (!adapter) {
      if (connection.credentials !== undefined)
        issues.push({ path: `${at}.credentials`, message: `vendor "${connection.vendor}" has no featured adapter to use credentials` });
    } else {
      // Absent credentials are checked too: an adapter that needs a token for fetch-back would
      // otherwise answer every event of this store 500, and the vendor would retry forever.
      const parsed = adapter.credentials.safeParse(connection.credentials ?? {});
      if (!parsed.success) {
        for (const field of credentialFields(parsed.error, connection.credentials))
          issues.push({ path: under(`${at}.credentials`, field.path), message: field.message });
      }
      const storeId = storeIdProblem(adapter, connection.storeId);
      if (storeId) issues.push({ path: `${at}.storeId`, message: storeId });
    }
    if (connection.secret === undefined && (perConnection.get(connection.vendor) ?? false)) {
      issues.push({ path: `${at}.secret`, message: 'is required (generic tier, or a featured scheme that reads the connection secret)' });
    }
  }
  return issues;
}
