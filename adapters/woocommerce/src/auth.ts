import type { AuthSchemeInput } from '@loyalty-gateway/core';

/** HMAC-SHA256 of the raw body, hex, keyed by the provider-level webhook secret. */
export const auth: AuthSchemeInput = {
  kind: 'hmac',
  header: 'x-woocommerce-signature',
  algorithm: 'sha256',
  encoding: 'hex',
  signed: 'body',
  secret: { from: 'settings', key: 'webhookSecret' },
};
