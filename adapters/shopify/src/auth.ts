import type { AuthSchemeInput, NativeRequest } from '@loyalty-gateway/core';
import { parseExactJson } from './exact-json.js';

/**
 * Shopify signs every webhook with the app's client secret: `X-Shopify-Hmac-Sha256` is
 * base64(HMAC-SHA256(raw body)). The secret is per app, so it lives in the provider settings
 * (`appSecret`, a string or a list for rotation), not on each merchant connection.
 */
export const shopifyAuth = {
  kind: 'hmac',
  header: 'x-shopify-hmac-sha256',
  prefix: '',
  algorithm: 'sha256',
  encoding: 'base64',
  signed: 'body',
  secret: { from: 'settings', key: 'appSecret' },
} as const satisfies AuthSchemeInput;

/**
 * The store a webhook concerns: the `myshopify.com` domain in `X-Shopify-Shop-Domain`
 * (e.g. `bean-there.myshopify.com`), which is what the merchant enters as the connection's
 * store id. Lower-cased and trimmed; null when the header is absent or not a host name.
 */
export function shopDomainOf(headers: NativeRequest['headers']): string | null {
  const value = headers['x-shopify-shop-domain']?.trim().toLowerCase();
  if (!value || value.length > 255 || !/^[a-z0-9][a-z0-9.-]*[a-z0-9]$/.test(value)) return null;
  return value;
}

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
