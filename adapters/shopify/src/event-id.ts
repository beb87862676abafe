import type { ShopifyUnit } from './auth.js';

/**
 * The canonical eventId: `{topic}:{X-Shopify-Event-Id}`, falling back to the webhook id and then
 * to the resource id. Shopify documents the event id as "shared across all deliveries from the
 * same merchant action", so one action (cancel and refund) can reach several topics with the same
 * id; prefixing the topic keeps those distinct while staying stable across retries, and across the
 * deliveries of two subscriptions of one topic (the same event id, another webhook id).
 *
 * `part` names one of several movements a delivery carries (a refund of an order read back, a
 * refund among others of one action): `{topic}:{event id}:{part}`. Without it the ledger's cache
 * would answer every movement after the first `duplicate` (its event id already seen).
 */
export function eventIdFor(unit: Pick<ShopifyUnit, 'topic' | 'eventId' | 'webhookId'>, resourceId: string, part?: string): string {
  const delivery = unit.eventId ?? unit.webhookId;
  const id = delivery === null ? resourceId : part === undefined ? delivery : `${delivery}:${part}`;
  return `${unit.topic}:${id}`.slice(0, 255);
}
