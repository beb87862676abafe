import { z } from 'zod';
import { PositiveMoney } from '../money.js';
import { Store, id, text } from './common.js';

export const CatalogItem = z.strictObject({
  externalId: id(255),
  name: text(255),
  sku: text(255).optional(),
  category: text(255).optional(),
  price: PositiveMoney.optional(),
  isActive: z.boolean(),
});
export type CatalogItem = z.infer<typeof CatalogItem>;

export const CatalogSyncRequest = z.strictObject({
  store: Store,
  items: z.array(CatalogItem),
});
export type CatalogSyncRequest = z.infer<typeof CatalogSyncRequest>;

export const CatalogSyncResult = z.strictObject({
  status: z.literal('synced'),
  itemsReceived: z.number().int(),
  itemsCreated: z.number().int(),
  itemsUpdated: z.number().int(),
  itemsDeactivated: z.number().int(),
});
export type CatalogSyncResult = z.infer<typeof CatalogSyncResult>;
