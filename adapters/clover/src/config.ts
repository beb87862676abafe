import { Secret, VendorApiBaseUrl, trimTrailingSlashes, type AdapterContext } from '@loyalty-gateway/core';
import { z } from 'zod';

export const CLOVER_API_BASE_URL = 'https://api.clover.com';

/**
 * Provider settings (one Clover app): the X-Clover-Auth code (a list during rotation) and the REST
 * API base URL (Europe: https://api.eu.clover.com, sandbox: https://apisandbox.dev.clover.com; tests
 * point it at a local recorded server).
 */
export const CloverSettings = z.strictObject({
  authCode: Secret.meta({
    title: 'Clover Auth Code',
    description: 'Sent by Clover as X-Clover-Auth on every notification; a list during rotation.',
    secret: true,
  }),
  apiBaseUrl: VendorApiBaseUrl.default(CLOVER_API_BASE_URL)
    .transform(trimTrailingSlashes)
    .meta({ title: 'API base URL', description: 'https://api.clover.com (default), https://api.eu.clover.com, or the sandbox.' }),
});
export type CloverSettings = z.infer<typeof CloverSettings>;

/** Per connection (one merchant): the OAuth access token used for fetch-back and catalog pulls. */
export const CloverCredentials = z.strictObject({
  accessToken: z.string().min(1).meta({
    title: 'OAuth access token',
    description: 'Token of our Clover app for this merchant (orders read, payments read, inventory read, customers read).',
    secret: true,
  }),
});
export type CloverCredentials = z.infer<typeof CloverCredentials>;

export type CloverContext = AdapterContext<CloverSettings, CloverCredentials>;

/**
 * A Clover object id (merchants, orders, customers, refunds, items): 13 characters of upper-case
 * letters and digits. Every id the adapter puts into an API path is checked against it first, so
 * an authenticated payload can never walk the fetch-back to another path (`O:..`).
 */
export const CloverId = z.string().regex(/^[0-9A-Z]{13}$/, { message: 'is not a Clover id (13 upper-case letters and digits)' });
export const isCloverId = (value: string): boolean => CloverId.safeParse(value).success;

/** `{apiBaseUrl}/v3/merchants/{mId}{path}` with the connection's bearer token. */
export function merchantUrl(ctx: CloverContext, merchantId: string, path: string): string {
  return `${ctx.settings.apiBaseUrl}/v3/merchants/${encodeURIComponent(merchantId)}${path}`;
}

export const bearer = (ctx: CloverContext): Record<string, string> => ({
  authorization: `Bearer ${ctx.credentials.accessToken}`,
});
