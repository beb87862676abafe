import { VendorApiBaseUrl, type AdapterContext } from '@loyalty-gateway/core';
import { z } from 'zod';

/** No provider settings: each store signs with its own webhook secret (the connection's `secret`). */
export const WooSettings = z.strictObject({});
export type WooSettings = z.infer<typeof WooSettings>;

/** REST API keys (WooCommerce → Settings → Advanced → REST API, Read) for the catalog and reconciliation pulls. */
export const WooCredentials = z.strictObject({
  consumerKey: z
    .string()
    .regex(/^ck_\w+$/, { message: 'must be a WooCommerce consumer key (ck_…)' })
    .optional()
    .meta({
      title: 'REST API consumer key',
      description: 'ck_…, permission Read: used for the catalog and order reconciliation pulls.',
      secret: true,
    }),
  consumerSecret: z
    .string()
    .regex(/^cs_\w+$/, { message: 'must be a WooCommerce consumer secret (cs_…)' })
    .optional()
    .meta({ title: 'REST API consumer secret', description: 'cs_…, shown once when the key is created.', secret: true }),
});
export type WooCredentials = z.infer<typeof WooCredentials>;

/** home_url('/'), as X-WC-Webhook-Source sends it: the connection's store id and the pulls' base URL. */
export const WooSiteAddress = VendorApiBaseUrl.refine((url) => url.endsWith('/'), {
  message: 'must end with "/", exactly as WooCommerce sends it (e.g. https://shop.example.com/)',
});

export type WooContext = AdapterContext<WooSettings, WooCredentials>;
