import { Secret, VendorApiError, trimTrailingSlashes } from '@loyalty-gateway/core';
import { z } from 'zod';

/**
 * The Admin API version the adapter speaks by default: a stable quarterly release Shopify supports
 * for at least 12 months from its release (2026-07: until at least July 2027). Operators override
 * it per vendor with the `apiVersion` setting; move the default forward at least once a year.
 */
export const DEFAULT_API_VERSION = '2026-07';

/**
 * Provider-level settings (one Shopify app for every merchant). `apiBaseUrl` defaults to the
 * shop's own Admin API, `https://{shop}/admin/api/{apiVersion}`; set it to point tests or UAT at
 * a recorded server. A `{shop}` placeholder in it is replaced by the connection's shop domain.
 */
export const ShopifySettings = z.strictObject({
  appSecret: Secret.meta({
    title: 'App client secret',
    description: 'Signs every webhook (X-Shopify-Hmac-Sha256). A list allows rotation.',
    secret: true,
  }),
  apiBaseUrl: z
    .string()
    .regex(/^https?:\/\/\S+$/, { message: 'must be an http(s) URL' })
    .optional()
    .meta({ title: 'Admin API base URL', description: 'Defaults to https://{shop}/admin/api/{apiVersion}; for tests and UAT only.' }),
  apiVersion: z
    .string()
    .regex(/^(\d{4}-(01|04|07|10)|unstable)$/, { message: 'must be a Shopify API version such as 2026-07' })
    .default(DEFAULT_API_VERSION)
    .meta({ title: 'Admin API version', description: 'Defaults to 2026-07 (supported by Shopify until at least July 2027).' }),
  /**
   * Whether the gateway creates and repairs each shop's webhook subscriptions through the Admin API
   * (`subscriptions.ensure`). Off by default: apps declare their topics in shopify.app.toml, which the
   * Admin API's webhookSubscriptions does not list, so a second, API-created set would be made
   * beside them and every event would arrive twice. On only for an app without toml subscriptions.
   */
  managedSubscriptions: z.boolean().default(false).meta({
    title: 'Gateway-managed subscriptions',
    description:
      "true: the gateway subscribes each shop through the Admin API. Leave false when the app's shopify.app.toml declares the webhooks (the default, recommended by Shopify): both would deliver every event twice.",
  }),
});
export type ShopifySettings = z.infer<typeof ShopifySettings>;

/**
 * Per-connection credentials. Optional on purpose: webhooks need none (they are verified with the
 * app secret), so a merchant who has not pasted a token yet still earns; only the catalog pull
 * requires `accessToken` and says so when it is missing.
 */
export const ShopifyCredentials = z.strictObject({
  accessToken: z.string().min(1).optional().meta({
    title: 'Admin API access token',
    description:
      'shpat_… token with read_products and read_orders: the nightly catalog pull and the order reconciliation every 15 minutes.',
    secret: true,
  }),
});
export type ShopifyCredentials = z.infer<typeof ShopifyCredentials>;

/**
 * A connection's store id: the shop's permanent `*.myshopify.com` domain, lower case, exactly as
 * `X-Shopify-Shop-Domain` carries it. It becomes the host the access token is sent to, so nothing
 * else is accepted (`evil.example/x?` would send the token elsewhere).
 */
export const ShopifyShopDomain = z
  .string()
  .max(255)
  .regex(/^[a-z0-9][a-z0-9-]*\.myshopify\.com$/, {
    message: "must be the shop's myshopify.com domain in lower case, e.g. bean-there.myshopify.com",
  });

/** The Admin API root for one shop, without a trailing slash; refuses a store id that is not a shop domain. */
export function adminApiBaseUrl(settings: ShopifySettings, shopDomain: string): string {
  const base = settings.apiBaseUrl ?? `https://{shop}/admin/api/${settings.apiVersion}`;
  if (base.includes('{shop}') && !ShopifyShopDomain.safeParse(shopDomain).success) {
    throw new VendorApiError(
      400,
      base,
      `the connection's store id is not a myshopify.com domain: its access token is sent to Shopify only`,
    );
  }
  return trimTrailingSlashes(base.replaceAll('{shop}', encodeURIComponent(shopDomain)));
}
