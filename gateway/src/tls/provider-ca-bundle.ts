import type { AnyAdapter } from '@loyalty-gateway/core';
import { parseProviderSettings } from '../featured/provider-settings.js';
import type { GatewayStore } from '../stores/index.js';

/**
 * The CA PEMs of every provider whose effective scheme is mTLS `direct`, read from the vendor
 * registry at start-up. They only feed the listener's acceptable-CA hint and `authorized` flag:
 * the door verifies each request against the provider's CA as configured at that moment, so a
 * provider configured later works without a restart (its CA joins the hint list on the next one).
 */
export async function providerCaBundle(store: Pick<GatewayStore, 'listVendors' | 'getVendor'>, adapters: readonly AnyAdapter[]): Promise<string[]> {
  const pems = new Set<string>();
  for (const summary of await store.listVendors()) {
    const adapter = adapters.find((a) => a.slug === summary.slug);
    if (!adapter) continue;
    const vendor = await store.getVendor(summary.slug);
    const parsed = parseProviderSettings(adapter, vendor?.settings ?? {});
    if (parsed.ok && parsed.config.scheme.kind === 'mtls' && parsed.config.scheme.mode === 'direct') pems.add(parsed.config.scheme.caPem);
  }
  return [...pems];
}
