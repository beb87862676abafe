import type { NativeRequest } from '@loyalty-gateway/core';
import { parseExactJson } from './exact-json.js';

/** What `units()` hands to `map()`: the topic, Shopify's delivery ids and the exactly-parsed body. */
export interface ShopifyUnit {
  topic: string;
  /** `X-Shopify-Event-Id`: the same on every retry of one event. */
  eventId: string | null;
  /** `X-Shopify-Webhook-Id`: per delivery (fallback only). */
  webhookId: string | null;
  /** `X-Shopify-Triggered-At`: when the event happened in Shopify (retries keep it). */
  triggeredAt: string | null;
  body: unknown;
}

const header = (request: NativeRequest, name: string): string | null => request.headers[name]?.trim() || null;

export function readUnit(request: NativeRequest): ShopifyUnit {
  return {
    topic: header(request, 'x-shopify-topic')?.toLowerCase() ?? '',
    eventId: header(request, 'x-shopify-event-id'),
    webhookId: header(request, 'x-shopify-webhook-id'),
    triggeredAt: header(request, 'x-shopify-triggered-at'),
    body: parseExactJson(request.rawBody),
  };
}

/** A delivery this much later than its event is a redelivery after failures (Shopify retries for 4 h, then removes the subscription). */
export const STALE_DELIVERY_MS = 15 * 60 * 1000;

/**
 * How late this delivery is (ms after `X-Shopify-Triggered-At`) when it is a stale redelivery,
 * else null: the door logs it, so an operator sees failing deliveries before Shopify gives up.
 */
export function staleBy(unit: Pick<ShopifyUnit, 'triggeredAt'>, now: Date): number | null {
  const at = unit.triggeredAt ? Date.parse(unit.triggeredAt) : Number.NaN;
  if (Number.isNaN(at)) return null;
  const late = now.getTime() - at;
  return late >= STALE_DELIVERY_MS ? late : null;
}

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
