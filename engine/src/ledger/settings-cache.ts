import { EngineError, type RewardType } from '@loyalty-gateway/core';
import type { Kysely } from 'kysely';
import type { EngineTables } from '../db/schema.js';
import { parseRate, type Rate } from '../rules/earn-rate.js';
import type { RewardRule } from '../rules/reward-rule.js';
import type { CatalogSkus } from '../rules/stamps.js';

export interface MerchantSettings {
  id: string;
  name: string;
  currency: string;
  defaultCountryCode: string;
  earnRate: Rate;
  redemptionRate: number;
  /** In configuration order. */
  rewards: RewardRule[];
  /** Keyed by the lower-cased id: reward ids are UUIDs, which are case-insensitive. */
  rewardsById: ReadonlyMap<string, RewardRule>;
}

/** How long a loaded entry is trusted: other processes sharing a PostgreSQL database see changes within it. */
export const SETTINGS_TTL_MS = 30_000;

interface Entry<T> {
  value: Promise<T>;
  loadedAt: number;
}

async function loadMerchant(db: Kysely<EngineTables>, merchantId: string): Promise<MerchantSettings | null> {
  const row = await db.selectFrom('merchants').selectAll().where('id', '=', merchantId).executeTakeFirst();
  if (!row) return null;
  const rewardRows = await db.selectFrom('rewards').selectAll().where('merchant_id', '=', merchantId).orderBy('position').execute();
  const rewards: RewardRule[] = rewardRows.map((r) => ({
    id: r.id,
    type: r.type as RewardType,
    title: r.title,
    pointsCost: r.points_cost,
    discountMinor: r.discount_minor,
    minSpendMinor: r.min_spend_minor,
    stampsRequired: r.stamps_required,
    minPoints: r.min_points,
    skus: new Set(JSON.parse(r.match_skus) as string[]),
    keywords: (JSON.parse(r.match_keywords) as string[]).map((k) => k.toLowerCase()),
  }));
  return {
    id: row.id,
    name: row.name,
    currency: row.currency,
    defaultCountryCode: row.default_country_code,
    earnRate: parseRate(row.earn_rate),
    redemptionRate: Number(row.redemption_rate),
    rewards,
    rewardsById: new Map(rewards.map((r) => [r.id.toLowerCase(), r])),
  };
}

async function loadCatalog(db: Kysely<EngineTables>, merchantId: string, outletId: string): Promise<CatalogSkus> {
  const rows = await db
    .selectFrom('catalog_items')
    .select(['external_id', 'sku'])
    .where('merchant_id', '=', merchantId)
    .where('outlet_id', '=', outletId)
    .execute();
  return new Map(rows.map((r) => [r.external_id, r.sku]));
}

/**
 * Merchant settings, rewards and per-outlet catalog SKUs, held in memory so the earn path does
 * not reload them: in this engine they change only through applySeed and catalogSync, which
 * invalidate the cache. Entries also expire after SETTINGS_TTL_MS for multi-process deployments.
 */
export class SettingsCache {
  private readonly merchants = new Map<string, Entry<MerchantSettings | null>>();
  private readonly catalogs = new Map<string, Entry<CatalogSkus>>();

  constructor(
    private readonly db: Kysely<EngineTables>,
    private readonly clock: () => number = Date.now,
  ) {}

  private cached<T>(map: Map<string, Entry<T>>, key: string, load: () => Promise<T>): Promise<T> {
    const now = this.clock();
    const hit = map.get(key);
    if (hit && now - hit.loadedAt < SETTINGS_TTL_MS) return hit.value;
    const value = load();
    map.set(key, { value, loadedAt: now });
    value.catch(() => map.delete(key));
    return value;
  }

  merchant(merchantId: string): Promise<MerchantSettings | null> {
    return this.cached(this.merchants, merchantId, () => loadMerchant(this.db, merchantId));
  }

  /** The merchant's settings, or an EngineError naming the unknown merchant (a configuration fault). */
  async requireMerchant(merchantId: string): Promise<MerchantSettings> {
    const merchant = await this.merchant(merchantId);
    if (!merchant) throw new EngineError('internal_error', `The loyalty engine has no merchant "${merchantId}".`);
    return merchant;
  }

  catalog(merchantId: string, outletId: string): Promise<CatalogSkus> {
    return this.cached(this.catalogs, `${merchantId}\u0000${outletId}`, () => loadCatalog(this.db, merchantId, outletId));
  }

  invalidate(): void {
    this.merchants.clear();
    this.catalogs.clear();
  }

  invalidateCatalog(merchantId: string, outletId: string): void {
    this.catalogs.delete(`${merchantId}\u0000${outletId}`);
  }
}
