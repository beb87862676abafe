import { defineAdapter } from '@loyalty-gateway/core';
import { shopDomainOf, shopifyAuth } from './auth.js';
import { CATALOG_SCHEDULE, pullCatalog } from './catalog.js';
import { ShopifyCredentials, ShopifySettings, ShopifyShopDomain } from './config.js';
import { toEnvelopes } from './map.js';
import { ShopifyWebhookBody } from './native.js';
import { readUnit, type ShopifyUnit } from './webhook-unit.js';

const logoSvg =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" role="img" aria-label="Shopify">' +
  '<rect width="64" height="64" rx="12" fill="#95BF47"/><path d="M22 26h20l-2 24H24z" fill="#fff"/>' +
  '<path d="M27 26c0-6 2-10 5-10s5 4 5 10" stroke="#fff" stroke-width="3" fill="none"/></svg>';

export const adapter = defineAdapter({
  slug: 'shopify',
  display: {
    name: 'Shopify',
    description: 'Earn on paid Shopify orders and reverse on refunds, straight from Shopify webhooks; nightly catalog pull for item rules.',
    category: 'ecommerce',
    logoSvg,
    website: 'https://www.shopify.com',
  },
  setup: {
    storeIdLabel: 'Shop domain (e.g. bean-there.myshopify.com)',
    steps: [
      { title: 'Install the loyalty app', body: 'Install the operator\'s Shopify app on your shop; its webhooks are signed with the app secret.' },
      { title: 'Subscribe the webhooks', body: 'Subscribe orders/paid, refunds/create and orders/cancelled (JSON) to {{webhookUrl}}.' },
      { title: 'Enter your shop', body: 'Enter your {{storeIdLabel}} exactly as Shopify shows it, and paste an Admin API access token with read_products for the catalog.' },
      { title: 'Test', body: 'Use "Send test notification": the gateway answers 200 and records it as a test; then pay a real order.' },
    ],
    credentials: [
      { key: 'accessToken', label: 'Admin API access token', help: 'shpat_… token with read_products; used only for the nightly catalog pull.', secret: true },
    ],
    provider: [
      { key: 'appSecret', label: 'App client secret', help: 'Signs every webhook (X-Shopify-Hmac-Sha256). A list allows rotation.', secret: true },
      { key: 'apiVersion', label: 'Admin API version', help: 'Defaults to 2025-07.', secret: false },
      { key: 'apiBaseUrl', label: 'Admin API base URL', help: 'Defaults to https://{shop}/admin/api/{apiVersion}; for tests and UAT only.', secret: false },
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
    return toEnvelopes(unit, ctx.storeId, ctx.now());
  },
  catalog: {
    schedule: CATALOG_SCHEDULE,
    pull: pullCatalog,
  },
});
