import { createEmbeddedEngine } from '@loyalty-gateway/engine';
import { createDatabase, type DatabaseOptions } from '@loyalty-gateway/storage';

/**
 * MBR-0001's wallet balance read straight from an engine database (after a gateway process wrote
 * it), through the engine's own eligibility: the ledger as a test sees it, no gateway in between.
 */
export async function memberBalance(options: DatabaseOptions, source: { vendor: string; storeId: string }): Promise<number> {
  const database = createDatabase<any>(options);
  const engine = await createEmbeddedEngine({ database });
  try {
    const result = await engine.eligibility({
      merchantId: 'm-bean',
      outletId: 'o-downtown',
      source,
      customer: { type: 'membershipId', value: 'MBR-0001' },
    });
    return result.walletBalance;
  } finally {
    await engine.close();
    await database.close();
  }
}
