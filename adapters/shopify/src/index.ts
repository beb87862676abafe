import { defineAdapter } from '@loyalty-gateway/core';
import { readUnit, shopDomainOf, shopifyAuth, staleBy, type ShopifyUnit } from './auth.js';
import { CATALOG_SCHEDULE, pullCatalog } from './catalog.js';
import { ShopifyCredentials, ShopifySettings, ShopifyShopDomain } from './config.js';
import { mapUnit } from './map-unit.js';
import { RECONCILE_SCHEDULE, pullOrders } from './reconcile.js';
import { SUBSCRIPTION_TOPICS, ensureSubscriptions, listSubscriptions } from './subscriptions.js';
import { ShopifyWebhookBody } from './native.js';

const logoSvg =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" role="img" aria-label="Shopify">' +
  '<rect width="64" height="64" rx="12" fill="#95BF47"/><path d="M22 26h20l-2 24H24z" fill="#fff"/>' +
  '<path d="M27 26c0-6 2-10 5-10s5 4 5 10" stroke="#fff" stroke-width="3" fill="none"/></svg>';

export const adapter = defineAdapter({
  slug: 'shopify',
  display: {
    name: 'Shopify',
    description:
      'Earn on Shopify orders paid in full and reverse on refunds (to cards, gift cards or store credit) and lost chargebacks, straight from Shopify webhooks; nightly catalog pull for item rules.',
    category: 'ecommerce',
    logoSvg,
  },
  setup: {
    storeIdLabel: 'Shop domain (e.g. bean-there.myshopify.com)',
    steps: [
      {
        title: 'Install the loyalty app',
        body: "Install the operator's Shopify app on your shop. The app subscribes your shop (through its shopify.app.toml) to orders/paid, refunds/create, orders/cancelled, order_transactions/create and disputes/update at {{webhookUrl}}: Shopify signs those deliveries with the app's secret, which the gateway checks. Nothing to set up by hand. Chargebacks reach the gateway only if the app has the read_shopify_payments_disputes scope.",
      },
      {
        title: 'Do not add webhooks by hand',
        body: "Webhooks added under Settings → Notifications → Webhooks are signed with a key of your shop, not the app's: the gateway refuses every one of them (401). Delete any you added for this address.",
      },
      {
        title: 'Enter your shop',
        body: "Enter your {{storeIdLabel}} exactly as Shopify shows it, and paste the app's Admin API access token (read_products, read_orders) for the catalog, the order reconciliation and refunds that settle after they were made.",
      },
      {
        title: 'Test',
        body: "Pay a small order with a loyalty member's email: the gateway answers Shopify 200 and the member's points show the sale within a minute.",
      },
    ],
  },
  settings: ShopifySettings,
  credentials: ShopifyCredentials,
  storeId: ShopifyShopDomain,
  auth: shopifyAuth,
  body: 'json',
  native: ShopifyWebhookBody,
  units(_native, request) {
    const shop = shopDomainOf(request.headers);
    return shop ? [{ storeId: shop, unit: readUnit(request) satisfies ShopifyUnit }] : [];
  },
  map(unit: ShopifyUnit, ctx) {
    const now = ctx.now();
    const late = staleBy(unit, now);
    if (late !== null) {
      ctx.logger.warn(
        { topic: unit.topic, eventId: unit.eventId, triggeredAt: unit.triggeredAt, lateMinutes: Math.round(late / 60_000) },
        'stale Shopify redelivery: earlier deliveries of this event failed (Shopify removes a subscription after 8 failed retries over 4 hours)',
      );
    }
    return mapUnit(unit, ctx);
  },
  catalog: {
    schedule: CATALOG_SCHEDULE,
    pull: pullCatalog,
  },
  reconcile: { schedule: RECONCILE_SCHEDULE, pull: pullOrders },
  subscriptions: { topics: SUBSCRIPTION_TOPICS, list: listSubscriptions, ensure: ensureSubscriptions },
});
