import { VendorApiBaseUrl, defineAdapter } from '@loyalty-gateway/core';
import { z } from 'zod';
import { pullOrders, pullProducts } from './api.js';
import { ORDER_TOPICS, orderEnvelopes } from './map.js';
import { WooBody } from './native.js';

/** No provider settings: each store signs with its own webhook secret (the connection's `secret`). */
export const WooSettings = z.strictObject({});
export type WooSettings = z.infer<typeof WooSettings>;
/** REST API keys (WooCommerce → Settings → Advanced → REST API, Read) for the catalog and reconciliation pulls. */
export const WooCredentials = z.strictObject({
  consumerKey: z.string().regex(/^ck_\w+$/, { message: 'must be a WooCommerce consumer key (ck_…)' }).optional()
    .meta({ title: 'REST API consumer key', description: 'ck_…, permission Read: used for the catalog and order reconciliation pulls.', secret: true }),
  consumerSecret: z.string().regex(/^cs_\w+$/, { message: 'must be a WooCommerce consumer secret (cs_…)' }).optional()
    .meta({ title: 'REST API consumer secret', description: 'cs_…, shown once when the key is created.', secret: true }),
});
export type WooCredentials = z.infer<typeof WooCredentials>;

const logoSvg = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 48 48" role="img" aria-label="WooCommerce"><rect width="48" height="48" rx="8" fill="#7f54b3"/><text x="24" y="31" font-size="16" text-anchor="middle" fill="#fff">Woo</text></svg>';

export const adapter = defineAdapter({
  slug: 'woocommerce',
  display: { name: 'WooCommerce', description: 'Earn on paid WooCommerce orders and reverse on refunds, from WooCommerce webhooks; orders reconciled every 15 minutes, catalog nightly.', category: 'ecommerce', logoSvg },
  setup: {
    storeIdLabel: 'Site address, exactly as WooCommerce sends it (e.g. https://shop.example.com/)',
    steps: [
      { title: 'Create REST API keys', body: 'In WordPress: WooCommerce → Settings → Advanced → REST API → Add key, permission Read. Give the consumer key and secret to your loyalty operator with your {{storeIdLabel}}; the operator creates your connection and hands you its webhook secret.' },
      { title: 'Add the webhook', body: 'WooCommerce → Settings → Advanced → Webhooks → Add webhook: status Active, topic "Order updated", delivery URL {{webhookUrl}}, secret: the connection\'s webhook secret, API version WP REST API Integration v3. Save: WooCommerce pings the URL and the gateway answers 200.' },
      { title: 'Add "Order created" too', body: 'Add a second webhook exactly like the first with topic "Order created", so orders paid at checkout earn at once.' },
      { title: 'Test', body: 'Pay a small order with a loyalty member\'s billing email: the member\'s points show the sale within a minute. A missed webhook is still earned by the next reconciliation (every 15 minutes).' },
    ],
  },
  settings: WooSettings,
  credentials: WooCredentials,
  // home_url('/'), as X-WC-Webhook-Source sends it: the connection's store id and the pulls' base URL.
  storeId: VendorApiBaseUrl.refine((url) => url.endsWith('/'), { message: 'must end with "/", exactly as WooCommerce sends it (e.g. https://shop.example.com/)' }),
  // base64 HMAC-SHA256 of the raw body, keyed by the webhook's own secret: one per store.
  auth: { kind: 'hmac', header: 'x-wc-webhook-signature', algorithm: 'sha256', encoding: 'base64', signed: 'body', secret: { from: 'connection' } },
  body: 'json-or-form',
  native: WooBody,
  // Saving a webhook posts `webhook_id=<n>`, unsigned and without X-WC-* headers; WooCommerce wants exactly 200.
  handshake: { auth: 'unsigned', detect: (body) => (body.webhook_id !== undefined && body.id === undefined ? { note: 'WooCommerce webhook saved (ping): deliveries to this URL will follow', value: body.webhook_id.slice(0, 64) } : null) },
  units(body, request) {
    const site = request.headers['x-wc-webhook-source'];
    if (!site) return [{ storeId: '', unreadable: 'no X-WC-Webhook-Source header: the site cannot be known' }];
    return [{ storeId: site, unit: { topic: request.headers['x-wc-webhook-topic'] ?? '', body } }];
  },
  map: ({ topic, body }: { topic: string; body: WooBody }, ctx) =>
    ORDER_TOPICS.has(topic) ? orderEnvelopes(body, ctx.storeId) : { envelopes: [], note: `WooCommerce topic "${topic}" is not used for loyalty: nothing to do` },
  catalog: { schedule: '50 3 * * *', pull: pullProducts },
  reconcile: { schedule: '*/15 * * * *', pull: pullOrders },
});
