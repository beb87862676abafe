import { CatalogItem, toMinorUnits, type CatalogSyncCommand } from '@loyalty-gateway/core';

/**
 * The pulled items as the engine's full-snapshot command, exactly as `/v1/catalog/sync` builds it:
 * each item checked by the strict canonical schema, money in minor units. A later page's copy of
 * an item wins (offset paging can shift while the vendor's catalog changes). Throws on an invalid
 * item: a snapshot with holes would deactivate what it misses.
 */
export function toCatalogItems(items: readonly unknown[]): CatalogSyncCommand['items'] {
  const byId = new Map<string, CatalogSyncCommand['items'][number]>();
  items.forEach((raw, index) => {
    const parsed = CatalogItem.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new Error(
        `item ${index} is not a valid catalog item: ${issue ? `${issue.path.join('.') || '(item)'} ${issue.message}` : 'invalid'}`,
      );
    }
    const item = parsed.data;
    const priceMinor = item.price === undefined ? undefined : toMinorUnits(item.price);
    if (priceMinor === null) throw new Error(`item ${index} has a price that is not a two-decimal amount`);
    byId.set(item.externalId, {
      externalId: item.externalId,
      name: item.name,
      sku: item.sku,
      category: item.category,
      priceMinor,
      isActive: item.isActive,
    });
  });
  return [...byId.values()];
}
