import { newId } from './new-id.js';
import { GatewayError, type CatalogSyncCommand, type CatalogSyncResult, type EngineCallOptions } from '@loyalty-gateway/core';
import { advisoryXactLock } from './advisory-lock.js';
import type { EngineContext, Tx } from './context.js';
import { transactBefore } from './deadline.js';

type Incoming = CatalogSyncCommand['items'][number];
type Existing = {
  id: string;
  external_id: string;
  name: string;
  sku: string | null;
  category: string | null;
  price_minor: number | null;
  is_active: number;
};

/** Decision: duplicate externalIds in one snapshot are rejected (422), naming the later index. */
function rejectDuplicates(items: readonly Incoming[]): void {
  const seen = new Map<string, number>();
  const fields = [];
  for (const [i, item] of items.entries()) {
    const first = seen.get(item.externalId);
    if (first === undefined) seen.set(item.externalId, i);
    else fields.push({ path: `items[${i}].externalId`, message: `duplicate externalId "${item.externalId}" (also at items[${first}])` });
  }
  if (fields.length > 0) {
    throw new GatewayError('validation_failed', {
      message: `The request failed validation: ${fields[0]!.path} is a duplicate externalId.`,
      fields,
    });
  }
}

const columnsOf = (item: Incoming) => ({
  name: item.name,
  sku: item.sku ?? null,
  category: item.category ?? null,
  price_minor: item.priceMinor ?? null,
  is_active: item.isActive ? 1 : 0,
});

function changed(row: Existing, item: Incoming): boolean {
  const next = columnsOf(item);
  return (
    row.name !== next.name ||
    row.sku !== next.sku ||
    row.category !== next.category ||
    (row.price_minor === null ? null : Number(row.price_minor)) !== next.price_minor ||
    Number(row.is_active) !== next.is_active
  );
}

async function writeChanges(
  trx: Tx,
  command: CatalogSyncCommand,
  existing: Map<string, Existing>,
  now: string,
): Promise<Omit<CatalogSyncResult, 'status' | 'itemsReceived'>> {
  const created = command.items.filter((item) => !existing.has(item.externalId));
  const updated = command.items.filter((item) => {
    const row = existing.get(item.externalId);
    return row !== undefined && changed(row, item);
  });
  const present = new Set(command.items.map((i) => i.externalId));
  const deactivate = [...existing.values()]
    .filter((row) => !present.has(row.external_id) && Number(row.is_active) === 1)
    .map((row) => row.id);
  for (let i = 0; i < created.length; i += 500) {
    await trx
      .insertInto('catalog_items')
      .values(
        created.slice(i, i + 500).map((item) => ({
          id: newId(),
          merchant_id: command.merchantId,
          outlet_id: command.outletId,
          external_id: item.externalId,
          ...columnsOf(item),
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
  }
  for (const item of updated) {
    await trx
      .updateTable('catalog_items')
      .set({ ...columnsOf(item), updated_at: now })
      .where('id', '=', existing.get(item.externalId)!.id)
      .execute();
  }
  for (let i = 0; i < deactivate.length; i += 500) {
    await trx
      .updateTable('catalog_items')
      .set({ is_active: 0, updated_at: now })
      .where('id', 'in', deactivate.slice(i, i + 500))
      .execute();
  }
  return { itemsCreated: created.length, itemsUpdated: updated.length, itemsDeactivated: deactivate.length };
}

/** Advisory-lock namespace of catalog syncs (the two-key form: no clash with other lock users). */
const CATALOG_LOCK_CLASS = 0x63617431; // 'cat1'

/**
 * Serialise syncs of one outlet: a snapshot is read, compared and written, so two at once would
 * both create the same items (unique violation) or both count the same deactivations. On
 * PostgreSQL (READ COMMITTED) a transaction-scoped advisory lock on the outlet is taken first, so
 * the read sees the previous sync's commit; SQLite already serialises every writer.
 */
const lockOutlet = (ctx: EngineContext, trx: Tx, command: CatalogSyncCommand): Promise<void> =>
  advisoryXactLock(ctx, trx, CATALOG_LOCK_CLASS, [command.merchantId, command.outletId]);

/**
 * Full-snapshot catalog sync for one outlet, in one transaction (one at a time per outlet): new externalIds are created,
 * changed ones updated (an unchanged item is not counted), known items absent from the snapshot
 * are marked inactive (never deleted; an item already inactive is not counted again). Not
 * committed once the call's deadline has passed.
 */
export async function catalogSync(
  ctx: EngineContext,
  command: CatalogSyncCommand,
  options: EngineCallOptions = {},
): Promise<CatalogSyncResult> {
  rejectDuplicates(command.items);
  await ctx.cache.requireMerchant(command.merchantId);
  const now = ctx.now();
  const counts = await transactBefore(ctx.db, options.deadline, async (trx) => {
    await lockOutlet(ctx, trx, command);
    const rows = await trx
      .selectFrom('catalog_items')
      .select(['id', 'external_id', 'name', 'sku', 'category', 'price_minor', 'is_active'])
      .where('merchant_id', '=', command.merchantId)
      .where('outlet_id', '=', command.outletId)
      .execute();
    return writeChanges(trx, command, new Map(rows.map((r) => [r.external_id, r])), now);
  });
  ctx.cache.invalidateCatalog(command.merchantId, command.outletId);
  return { status: 'synced', itemsReceived: command.items.length, ...counts };
}
