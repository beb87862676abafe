import { trimTrailingSlashes, type AnyAdapter } from '@loyalty-gateway/core';
import type { FastifyRequest } from 'fastify';
import { parseProviderSettings } from '../featured/index.js';

/** The webhook address a setup page shows, and where it came from. */
export type ShownWebhookUrl = { url: string; source: 'notificationUrl' | 'publicUrl' | 'request' } | { url: null; source: 'unconfigured' };

/** `host[:port]` and nothing else: a Host header that is not one is never echoed into a page. */
const HOST = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*(?::\d{1,5})?$/i;

/**
 * Which webhook URL a merchant should paste, most trustworthy first:
 * 1. the provider setting `notificationUrl`: the exact URL the vendor signs (Square), which is
 *    also the one the door verifies against;
 * 2. GATEWAY_PUBLIC_URL + `/webhooks/{slug}`;
 * 3. in development only, the origin this page was requested on, when its Host is a plain
 *    `host[:port]` (marked as derived on the page). Anywhere else the page says the operator has
 *    not configured the address, rather than show one a Host header chose.
 */
export function webhookUrlFor(
  adapter: AnyAdapter,
  settings: Record<string, unknown> | null,
  options: { publicUrl?: string | undefined; environment?: string | undefined },
  request: FastifyRequest,
): ShownWebhookUrl {
  const parsed = settings ? parseProviderSettings(adapter, settings) : null;
  const notificationUrl = parsed?.ok ? parsed.config.notificationUrl : undefined;
  if (notificationUrl) return { url: notificationUrl, source: 'notificationUrl' };
  const path = `/webhooks/${adapter.slug}`;
  if (options.publicUrl) return { url: trimTrailingSlashes(options.publicUrl) + path, source: 'publicUrl' };
  const development = (options.environment ?? 'development') === 'development';
  if (development && HOST.test(request.host)) return { url: `${request.protocol}://${request.host}${path}`, source: 'request' };
  return { url: null, source: 'unconfigured' };
}
