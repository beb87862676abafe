import { VendorApiError, type AdapterContext } from '@loyalty-gateway/core';
import type { z } from 'zod';
import { adminApiBaseUrl, type ShopifyCredentials, type ShopifySettings } from './config.js';
import { ShopifyGraphqlResponse } from './native.js';

export type ShopifyContext = AdapterContext<ShopifySettings, ShopifyCredentials>;

/** Attempts of one query while Shopify answers 200 + THROTTLED (HTTP 429/5xx are ctx.http's). */
export const THROTTLE_ATTEMPTS = 3;
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
 * the computed wait as retryAfterMs (the scheduler's backoff honours it), INTERNAL_SERVER_ERROR a
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

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * POST a query to `{apiBaseUrl}/graphql.json` with the connection's access token. ctx.http retries
 * HTTP 429/5xx (Retry-After honoured); a THROTTLED answer inside a 200 is retried here after the
 * wait Shopify's cost data implies, then thrown as a retryable VendorApiError.
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
  for (let attempt = 1; ; attempt += 1) {
    const body = await ctx.http.json(url, { method: 'POST', headers: { 'x-shopify-access-token': token }, body: { query, variables } });
    const response = ShopifyGraphqlResponse.parse(body);
    const failure = graphqlFailure(response, url);
    if (!failure) return data.parse(response.data);
    if (!failure.retryable || attempt >= THROTTLE_ATTEMPTS) throw failure;
    ctx.logger.warn({ store: ctx.storeId, attempt, waitMs: failure.retryAfterMs }, failure.message);
    await wait(failure.retryAfterMs ?? 1000);
  }
}
