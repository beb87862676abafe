import type { AuthSchemeInput, Handshake, NativeRequest, UnreadableUnit, WebhookUnit } from '@loyalty-gateway/core';
import type { WooBody } from './native.js';

/** base64 HMAC-SHA256 of the raw body in X-WC-Webhook-Signature, keyed by the webhook's own secret: one per store. */
export const wooAuth: AuthSchemeInput = {
  kind: 'hmac',
  header: 'x-wc-webhook-signature',
  algorithm: 'sha256',
  encoding: 'base64',
  signed: 'body',
  secret: { from: 'connection' },
};

/** Saving a webhook posts `webhook_id=<n>`, unsigned and without X-WC-* headers; WooCommerce wants exactly 200. */
export function wooHandshake(body: WooBody): Handshake | null {
  return body.webhook_id !== undefined && body.id === undefined
    ? { note: 'WooCommerce webhook saved (ping): deliveries to this URL will follow', value: body.webhook_id.slice(0, 64) }
    : null;
}

/** One delivery: its topic (X-WC-Webhook-Topic) and body. */
export interface WooUnit {
  topic: string;
  body: WooBody;
}

/** The store is the site in X-WC-Webhook-Source (home_url('/')); without it the delivery cannot be placed. */
export function wooUnits(body: WooBody, request: NativeRequest): Array<WebhookUnit<WooUnit> | UnreadableUnit> {
  const site = request.headers['x-wc-webhook-source'];
  if (!site) return [{ storeId: '', unreadable: 'no X-WC-Webhook-Source header: the site cannot be known' }];
  return [{ storeId: site, unit: { topic: request.headers['x-wc-webhook-topic'] ?? '', body } }];
}
