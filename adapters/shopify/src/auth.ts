import type { AuthSchemeInput, NativeRequest } from '@loyalty-gateway/core';

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
