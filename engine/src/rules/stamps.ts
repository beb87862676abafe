import type { SaleLine } from '@loyalty-gateway/core';
import type { RewardRule } from './reward-rule.js';

/** Catalog items of one outlet by externalId: the sku a sale line can inherit. */
export type CatalogSkus = ReadonlyMap<string, string | null>;

/** SKUs a line carries: its own, and the sku of the catalog item its `id` or `sku` names. */
function lineSkus(line: SaleLine, catalog: CatalogSkus): string[] {
  const skus: string[] = [];
  if (line.sku) skus.push(line.sku);
  for (const key of [line.id, line.sku]) {
    const sku = key === undefined ? undefined : catalog.get(key);
    if (sku) skus.push(sku);
  }
  return skus;
}

/** A line matches a stamp reward by exact SKU, else by a case-insensitive keyword in its name. */
export function lineMatches(line: SaleLine, reward: RewardRule, catalog: CatalogSkus): boolean {
  if (lineSkus(line, catalog).some((sku) => reward.skus.has(sku))) return true;
  if (reward.keywords.length === 0) return false;
  const name = line.name.toLowerCase();
  return reward.keywords.some((keyword) => name.includes(keyword));
}

/** Stamps each STAMP reward receives from a sale: the quantities of its matching lines. */
export function stampsForSale(
  lines: readonly SaleLine[],
  rewards: readonly RewardRule[],
  catalog: CatalogSkus,
): Array<{ reward: RewardRule; stamps: number }> {
  const out: Array<{ reward: RewardRule; stamps: number }> = [];
  for (const reward of rewards) {
    if (reward.type !== 'STAMP') continue;
    let stamps = 0;
    for (const line of lines) if (lineMatches(line, reward, catalog)) stamps += line.quantity;
    if (stamps > 0) out.push({ reward, stamps });
  }
  return out;
}

/**
 * A card's state from the member's lifetime stamp count for that reward: the current card holds
 * `total mod required`; the cards completed by this sale are the whole cards crossed by `added`.
 * (12 stamps on a fresh 5-card → 2 completed, current 2.)
 */
export function cardProgress(totalAfter: number, added: number, required: number): { current: number; completedNow: number } {
  const before = totalAfter - added;
  return {
    current: totalAfter % required,
    completedNow: Math.floor(totalAfter / required) - Math.floor(before / required),
  };
}
