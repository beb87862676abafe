import type { AnyAdapter } from '@loyalty-gateway/core';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { adapters as registeredAdapters } from '../adapters.js';
import '../http/fastify-types.js';
import type { GatewayStore } from '../stores/index.js';
import { COPY_SCRIPT, COPY_SCRIPT_PATH } from './copy-script.js';
import { renderDirectory, renderSetupPage } from './render-directory.js';
import { renderDirectoryNotFound } from './render-not-found.js';
import { webhookUrlFor } from './webhook-url.js';

export interface DirectoryOptions {
  store: Pick<GatewayStore, 'getVendor' | 'listVendors'>;
  /** The gateway's typed adapter list by default. */
  adapters?: readonly AnyAdapter[] | undefined;
  /** GATEWAY_PUBLIC_URL: the base of the webhook URL shown (a vendor's `notificationUrl` setting wins). */
  publicUrl?: string | undefined;
  /** GATEWAY_ENV: only in development is an unconfigured URL derived from the request's Host. */
  environment?: string | undefined;
}

const HTML = 'text/html; charset=utf-8';
const ROUTE = { config: { rateLimit: false as const } };

/** No inline script at all: the Copy handler is a file of this origin; nothing loaded from elsewhere. */
const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; script-src 'self'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-cache',
};

const send = (reply: FastifyReply, status: number, body: string) => reply.code(status).headers(SECURITY_HEADERS).type(HTML).send(body);

/**
 * GET /directory (featured vendors: tier featured AND a registered adapter) and
 * GET /directory/{slug} (its guided setup page; a 404 page for anything else). Public, no auth,
 * server-rendered HTML. A promotion shows here as soon as the store's vendor cache sees it.
 */
export function registerDirectory(app: FastifyInstance, options: DirectoryOptions): void {
  const adapters = options.adapters ?? registeredAdapters;

  async function featured(): Promise<AnyAdapter[]> {
    const tiers = new Map((await options.store.listVendors()).map((v) => [v.slug, v.tier]));
    return adapters.filter((a) => tiers.get(a.slug) === 'featured');
  }

  app.get('/directory', ROUTE, async (_request, reply) => send(reply, 200, renderDirectory(await featured())));

  // Registered before /directory/:slug: a static path wins over the parameter.
  app.get(COPY_SCRIPT_PATH, ROUTE, async (_request, reply) =>
    reply
      .headers({ 'x-content-type-options': 'nosniff', 'cache-control': 'public, max-age=86400' })
      .type('text/javascript; charset=utf-8')
      .send(COPY_SCRIPT),
  );

  app.get('/directory/:slug', ROUTE, async (request, reply) => {
    const { slug } = request.params as { slug: string };
    const adapter = adapters.find((a) => a.slug === slug);
    const vendor = adapter ? await options.store.getVendor(slug) : null;
    if (!adapter || vendor?.tier !== 'featured') return send(reply, 404, renderDirectoryNotFound(slug));
    return send(reply, 200, renderSetupPage(adapter, webhookUrlFor(adapter, vendor.settings, options, request)));
  });
}
