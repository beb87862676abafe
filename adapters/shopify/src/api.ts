import { VendorApiError, type AdapterContext } from '@loyalty-gateway/core';
import type { z } from 'zod';
import { adminApiBaseUrl, type ShopifyCredentials, type ShopifySettings } from './config.js';
import { ShopifyGraphqlResponse } from './native.js';

export type ShopifyContext = AdapterContext<ShopifySettings, ShopifyCredentials>;

/** The longest wait a THROTTLED answer asks for (the bucket refills within it). */
const MAX_THROTTLE_WAIT_MS = 10_000;

/** How long until the bucket holds the query's cost again: (requested − available) / restoreRate. */
export function throttleWaitMs(response: ShopifyGraphqlResponse): number {
  const cost = response.extensions?.cost;
  const requested = cost?.requestedQueryCost;
  const available = cost?.throttleStatus?.currentlyAvailable;
  const rate = cost?.throttleStatus?.restoreRate;
  if (requested == null || available == null || !rate || rate <= 0) return 1000;
  const ms = Math.ceil((Math.max(0, requested - available) / rate) * 1000);
  return Math.min(MAX_THROTTLE_WAIT_MS, Math.max(100, ms));
}

/**
 * GraphQL errors inside an HTTP 200 as a VendorApiError: THROTTLED becomes a retryable 429 with
 * the computed wait as retryAfterMs (the vendor-call policy honours it), INTERNAL_SERVER_ERROR a
 * retryable 500, ACCESS_DENIED a 403, anything else a 400 (not retryable: fix the query/scopes).
 */
export function graphqlFailure(response: ShopifyGraphqlResponse, url: string): VendorApiError | null {
  const errors = response.errors ?? [];
  if (errors.length === 0) return null;
  const codes = errors.map((e) => e.extensions?.code ?? e.message ?? 'UNKNOWN');
  const message = `Shopify GraphQL errors: ${codes.join(', ')}`;
  if (codes.includes('THROTTLED')) return new VendorApiError(429, url, message, throttleWaitMs(response));
  if (codes.includes('INTERNAL_SERVER_ERROR')) return new VendorApiError(500, url, message);
  if (codes.includes('ACCESS_DENIED')) return new VendorApiError(403, url, message);
  return new VendorApiError(400, url, message);
}

/**
 * POST a query to `{apiBaseUrl}/graphql.json` with the connection's access token. ctx.http's
 * vendor-call policy is the one retry: HTTP 429/5xx (Retry-After honoured) and a THROTTLED or
 * INTERNAL_SERVER_ERROR answer inside a 200 (`graphqlFailure`, waiting what Shopify's cost data
 * implies) share its attempts; once they are spent the last failure is thrown.
 */
export async function shopifyGraphql<S extends z.ZodType>(
  ctx: ShopifyContext,
  data: S,
  query: string,
  variables: Record<string, unknown>,
): Promise<z.infer<S>> {
  const url = `${adminApiBaseUrl(ctx.settings, ctx.storeId)}/graphql.json`;
  const token = ctx.credentials.accessToken;
  if (!token) throw new VendorApiError(401, url, `no accessToken on the Shopify connection ${ctx.storeId}`);
  const body = await ctx.http.json(url, {
    method: 'POST',
    headers: { 'x-shopify-access-token': token },
    body: { query, variables },
    failureIn: (answer) => graphqlFailure(ShopifyGraphqlResponse.parse(answer), url),
  });
  return data.parse(ShopifyGraphqlResponse.parse(body).data);
}
