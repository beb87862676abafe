import type { AnyAdapter } from '@loyalty-gateway/core';
import { parseProviderSettings } from '../featured/provider-settings.js';
import type { GatewayStore } from '../stores/index.js';

/**
 * The CA PEMs of every provider whose effective scheme is mTLS `direct`, read from the vendor
 * registry at start-up and again whenever provider settings change (keep-client-cas-current.ts).
 * They feed the listener's acceptable-CA list and `authorized` flag only: the door verifies each
 * request against the provider's CA as configured at that moment. Sorted, so the same set of CAs
 * is always the same list.
 */
export async function providerCaBundle(
  store: Pick<GatewayStore, 'listVendors' | 'getVendor'>,
  adapters: readonly AnyAdapter[],
): Promise<string[]> {
  const pems = new Set<string>();
  for (const summary of await store.listVendors()) {
    const adapter = adapters.find((a) => a.slug === summary.slug);
    if (!adapter) continue;
    const vendor = await store.getVendor(summary.slug);
    const parsed = parseProviderSettings(adapter, vendor?.settings ?? {});
    if (parsed.ok && parsed.config.scheme.kind === 'mtls' && parsed.config.scheme.mode === 'direct') pems.add(parsed.config.scheme.caPem);
  }
  return [...pems].sort();
}
