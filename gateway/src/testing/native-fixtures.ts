import { readFileSync } from 'node:fs';
import { hmacHeaderValue, type AuthScheme } from '@loyalty-gateway/core';

/** The exact bytes of an adapter's recorded fixture (vendors sign these bytes). */
export function adapterFixture(slug: 'shopify' | 'square' | 'clover' | 'woocommerce', name: string): Buffer {
  return readFileSync(new URL(`../../../adapters/${slug}/src/fixtures/${name}`, import.meta.url));
}

/** An adapter's recorded fixture, parsed (recorded API answers). */
export const adapterFixtureJson = (slug: 'shopify' | 'square' | 'clover' | 'woocommerce', name: string): unknown =>
  JSON.parse(adapterFixture(slug, name).toString('utf8'));

/** The header a vendor sends for an HMAC scheme, computed with core's real signer. */
export function vendorSignature(
  scheme: AuthScheme,
  secret: string,
  url: string,
  body: Buffer,
  headers: Record<string, string> = {},
): Record<string, string> {
  if (scheme.kind !== 'hmac') throw new Error(`vendorSignature signs HMAC schemes, not ${scheme.kind}`);
  return { [scheme.header]: hmacHeaderValue(scheme, secret, { url, rawBody: body, headers }) };
}
