import type { AnyAdapter } from '@loyalty-gateway/core';
import { isValidCron } from './cron-clock.js';

export interface EffectiveCatalogSchedule {
  /** Cron expression (croner's, five fields or six with seconds), in the gateway's local time. */
  schedule: string;
  /** `settings`: the operator's `catalogSchedule` provider setting; `adapter`: the adapter's default. */
  source: 'settings' | 'adapter';
}

/**
 * The schedule a vendor's catalog is pulled on: the provider setting `catalogSchedule` when it is
 * set (checked with `isValidCron` when written: PUT …/settings, the seed file), else the
 * adapter's default. Null for an adapter without a catalog pull. A stored value the gateway refuses
 * (written by a build that checked less) falls back to the default rather than stopping the pulls.
 */
export function catalogScheduleOf(
  adapter: AnyAdapter | undefined,
  settings: Record<string, unknown> | null | undefined,
): EffectiveCatalogSchedule | null {
  const fallback = adapter?.catalog?.schedule;
  if (!fallback) return null;
  const override = settings?.catalogSchedule;
  if (typeof override === 'string' && isValidCron(override.trim())) return { schedule: override.trim(), source: 'settings' };
  return { schedule: fallback, source: 'adapter' };
}
