import { CatalogSyncRequest, GatewayError } from '@loyalty-gateway/core';
import '../http/fastify-types.js';
import { scopeOf } from '../webhooks/to-engine-command.js';
import type { CheckoutEndpoint } from './checkout-endpoint.js';
import { catalogSyncResultJsonSchema } from './checkout-response-schemas.js';
import { catalogSyncResult } from './checkout-results.js';
import { readJsonBody } from '../webhooks/read-envelope.js';
import { toMinor } from './to-minor.js';

/**
 * POST /v1/catalog/sync: a full snapshot of one outlet's catalog. `store.id` must equal the
 * X-Service-Store header (400 store_mismatch), as on the webhook. Generic vendors only, as the
 * spec says: a featured vendor whose catalog the operator pulls gets 400 catalog_pulled (a push
 * and the scheduled pull would each write a full snapshot and deactivate the other's items).
 */
export const catalogSyncEndpoint: CheckoutEndpoint = {
  feature: 'catalog-sync',
  path: '/v1/catalog/sync',
  responseSchema: catalogSyncResultJsonSchema,
  handler: (deps) => async (request) => {
    const body = readJsonBody(CatalogSyncRequest, request.body);
    const connection = request.connection!;
    request.audit = { eventType: 'catalog-sync' };
    if (body.store.id !== connection.storeId) throw new GatewayError('store_mismatch');
    const puller = await deps.catalogPullerOf?.(connection.vendor);
    if (puller) {
      throw new GatewayError('catalog_pulled', {
        message: `${puller.display.name} is a featured vendor: the operator pulls its catalog on a schedule, so a pushed catalog is not accepted. Nothing was changed.`,
      });
    }
    const result = await deps.engine.catalogSync({
      ...scopeOf(connection),
      items: body.items.map((item) => ({
        externalId: item.externalId,
        name: item.name,
        sku: item.sku,
        category: item.category,
        priceMinor: toMinor(item.price),
        isActive: item.isActive,
      })),
    });
    request.audit.outcome = result.status;
    return catalogSyncResult(result);
  },
};
