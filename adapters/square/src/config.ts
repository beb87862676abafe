import { Secret, VendorApiBaseUrl } from '@loyalty-gateway/core';
import { z } from 'zod';

export const SQUARE_API_BASE_URL = 'https://connect.squareup.com';
/** A published Square API version (https://developer.squareup.com/docs/build-basics/versioning-overview). */
export const DEFAULT_SQUARE_VERSION = '2025-01-23';

/**
 * Provider-level settings (one Square application / webhook subscription for every merchant).
 * Strict, like every adapter's settings: a typo (`apiBaseURL`) is refused by name when settings are
 * written, instead of being ignored while the default silently applies. Settings already stored
 * with a key this schema does not know are read by the gateway with that key left out and logged.
 * An operator's auth override keeps its own secret key here; the gateway takes that key (and
 * `auth`) out before this schema sees the rest.
 */
export const SquareSettings = z.strictObject({
  /** The subscription's signature key (Developer Console, Webhooks, the subscription). */
  signatureKey: Secret.meta({
    title: 'Webhook signature key',
    description: 'From the webhook subscription in the Square Developer Console; a list during rotation.',
    secret: true,
  }),
  /**
   * The notification URL exactly as registered in the subscription, byte for byte: Square signs
   * it together with the body, so a proxy-rewritten local URL would never verify.
   */
  notificationUrl: z.url().meta({
    title: 'Notification URL',
    description: 'The subscription URL exactly as registered in Square (Square signs it with the body).',
  }),
  apiBaseUrl: VendorApiBaseUrl.default(SQUARE_API_BASE_URL).meta({
    title: 'API base URL',
    description: 'Defaults to https://connect.squareup.com (https://connect.squareupsandbox.com for sandbox).',
  }),
  /** Sent as the `Square-Version` header on fetch-back and catalog calls. */
  squareVersion: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'must be a Square API version such as 2025-01-23' })
    .default(DEFAULT_SQUARE_VERSION)
    .meta({ title: 'Square-Version', description: 'API version header, e.g. 2025-01-23.' }),
});
export type SquareSettings = z.infer<typeof SquareSettings>;

/** Per-connection (per location) credentials for the Orders, Payments, Customers and Catalog APIs (and disputes' events). */
export const SquareCredentials = z.object({
  /** OAuth access token (or personal access token) with ORDERS_READ, PAYMENTS_READ, CUSTOMERS_READ, ITEMS_READ, DISPUTES_READ. */
  accessToken: z.string().min(1).meta({
    title: 'Square access token',
    description: 'OAuth access token for this seller (ORDERS_READ, PAYMENTS_READ, CUSTOMERS_READ, ITEMS_READ, DISPUTES_READ).',
    secret: true,
  }),
});
export type SquareCredentials = z.infer<typeof SquareCredentials>;
