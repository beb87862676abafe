import type { AnyAdapter } from '@loyalty-gateway/core';
import { adapters as registeredAdapters } from '../adapters.js';
import type { GatewayStore } from '../stores/index.js';

/** The adapter through which the operator pulls this vendor's catalog, or null when nobody pulls it. */
export type CatalogPullerOf = (vendorSlug: string) => Promise<AnyAdapter | null>;

/**
 * A vendor's catalog is pulled by the operator when the vendor is featured (read per request from
 * the vendor registry, so promotion and demotion need no restart) and its adapter declares a
 * catalog pull. Generic vendors, and featured ones whose adapter pulls nothing, push their catalog.
 */
export function catalogPullerOf(
  store: Pick<GatewayStore, 'getVendor'>,
  adapters: readonly AnyAdapter[] = registeredAdapters,
): CatalogPullerOf {
  return async (vendorSlug) => {
    const adapter = adapters.find((a) => a.slug === vendorSlug && a.catalog);
    if (!adapter) return null;
    const vendor = await store.getVendor(vendorSlug);
    return vendor?.tier === 'featured' ? adapter : null;
  };
}
