import type { AnyAdapter } from '@loyalty-gateway/core';
import type { VendorSummary } from '../stores/index.js';

/** A vendor as the admin API shows it: never its settings, only whether there are some. */
export function vendorView(vendor: Pick<VendorSummary, 'slug' | 'name' | 'tier' | 'hasSettings'>, adapter: AnyAdapter | undefined) {
  return {
    slug: vendor.slug,
    name: vendor.name,
    tier: vendor.tier,
    featuredAdapter: adapter !== undefined,
    hasSettings: vendor.hasSettings,
    catalogSchedule: adapter?.catalog?.schedule ?? null,
  };
}
