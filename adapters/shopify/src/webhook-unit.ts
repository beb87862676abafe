import type { NativeRequest } from '@loyalty-gateway/core';
import { parseExactJson } from './exact-json.js';

/** What `units()` hands to `map()`: the topic, Shopify's delivery ids and the exactly-parsed body. */
export interface ShopifyUnit {
  topic: string;
  /** `X-Shopify-Event-Id`: the same on every retry of one event. */
  eventId: string | null;
  /** `X-Shopify-Webhook-Id`: per delivery (fallback only). */
  webhookId: string | null;
  body: unknown;
}

const header = (request: NativeRequest, name: string): string | null => request.headers[name]?.trim() || null;

export function readUnit(request: NativeRequest): ShopifyUnit {
  return {
    topic: header(request, 'x-shopify-topic')?.toLowerCase() ?? '',
    eventId: header(request, 'x-shopify-event-id'),
    webhookId: header(request, 'x-shopify-webhook-id'),
    body: parseExactJson(request.rawBody),
  };
}

/**
 * The canonical eventId: `{topic}:{X-Shopify-Event-Id}`, falling back to the webhook id and then
 * to the resource id. Shopify documents the event id as "shared across all deliveries from the
 * same merchant action", so one action (cancel and refund) can reach several topics with the same
 * id; prefixing the topic keeps those distinct while staying stable across retries.
 */
export function eventIdFor(unit: ShopifyUnit, resourceId: string): string {
  const id = unit.eventId ?? unit.webhookId ?? resourceId;
  return `${unit.topic}:${id}`.slice(0, 255);
}
