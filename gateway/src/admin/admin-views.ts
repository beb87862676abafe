import type { AnyAdapter } from '@loyalty-gateway/core';
import { catalogScheduleOf } from '../scheduler/index.js';
import type { VendorSummary } from '../stores/index.js';

/**
 * A vendor as the admin API shows it: never its settings, only whether there are some, and the
 * catalog schedule its pulls run on (the `catalogSchedule` setting when set, else the adapter's
 * default; `catalogScheduleSource` says which). `settings` are read for the schedule only.
 */
export function vendorView(
  vendor: Pick<VendorSummary, 'slug' | 'name' | 'tier' | 'hasSettings'>,
  adapter: AnyAdapter | undefined,
  settings: Record<string, unknown> | null | undefined = null,
) {
  const schedule = catalogScheduleOf(adapter, settings);
  return {
    slug: vendor.slug,
    name: vendor.name,
    tier: vendor.tier,
    featuredAdapter: adapter !== undefined,
    hasSettings: vendor.hasSettings,
    catalogSchedule: schedule?.schedule ?? null,
    catalogScheduleSource: schedule?.source ?? null,
  };
}
