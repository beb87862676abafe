import { defineAdapter } from '@loyalty-gateway/core';
import { wooAuth, wooHandshake, wooUnits, type WooUnit } from './auth.js';
import { CATALOG_SCHEDULE, pullProducts } from './catalog.js';
import { WooCredentials, WooSettings, WooSiteAddress } from './config.js';
import { ORDER_TOPICS, orderEnvelopes } from './map.js';
import { WooBody } from './native.js';
import { RECONCILE_SCHEDULE, REVISIT_DAYS, pullOrders } from './reconcile.js';

const logoSvg =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 48 48" role="img" aria-label="WooCommerce"><rect width="48" height="48" rx="8" fill="#7f54b3"/><text x="24" y="31" font-size="16" text-anchor="middle" fill="#fff">Woo</text></svg>';

export const adapter = defineAdapter({
  slug: 'woocommerce',
  display: {
    name: 'WooCommerce',
    description:
      'Earn on paid WooCommerce orders and reverse on refunds and cancellations (given back when a refund is deleted or the order reopened), from WooCommerce webhooks; orders reconciled every 15 minutes, catalog nightly.',
    category: 'ecommerce',
    logoSvg,
  },
  setup: {
    storeIdLabel: 'Site address with its final slash, as WooCommerce sends it (e.g. https://shop.example.com/)',
    steps: [
      {
        title: 'Create REST API keys',
        body: 'In WordPress: WooCommerce → Settings → Advanced → REST API → Add key, permission Read. Give the consumer key and secret to your loyalty operator with your {{storeIdLabel}}; the operator creates your connection and hands you its webhook secret.',
      },
      {
        title: 'Add the webhook',
        body: 'WooCommerce → Settings → Advanced → Webhooks → Add webhook: status Active, topic "Order updated", delivery URL {{webhookUrl}}, secret: the connection\'s webhook secret, API version WP REST API Integration v3. Save: WooCommerce pings the URL and the gateway answers 200.',
      },
      {
        title: 'Add "Order created" too',
        body: 'Add a second webhook exactly like the first with topic "Order created", so orders paid at checkout earn at once.',
      },
      {
        title: 'Test',
        body: "Pay a small order with a loyalty member's billing email: the member's points show the sale within a minute. A missed webhook is still earned by the next reconciliation (every 15 minutes).",
      },
    ],
  },
  settings: WooSettings,
  credentials: WooCredentials,
  storeId: WooSiteAddress,
  auth: wooAuth,
  body: 'json-or-form',
  native: WooBody,
  // The ping comes before any secret is in place: recognised before authentication.
  handshake: { auth: 'unsigned', detect: wooHandshake },
  units: wooUnits,
  map: ({ topic, body }: WooUnit, ctx) =>
    ORDER_TOPICS.has(topic)
      ? orderEnvelopes(body, ctx.storeId)
      : { envelopes: [], note: `WooCommerce topic "${topic}" is not used for loyalty: nothing to do` },
  catalog: { schedule: CATALOG_SCHEDULE, pull: pullProducts },
  reconcile: { schedule: RECONCILE_SCHEDULE, revisitDays: REVISIT_DAYS, pull: pullOrders },
});
