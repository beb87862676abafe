import { WEBHOOK_FETCH_BACK } from '@loyalty-gateway/core';
import type { FastifyInstance } from 'fastify';
import { adapters as registeredAdapters } from '../adapters.js';
import '../http/fastify-types.js';
import type { ReplayTickets } from '../journal/replay-tickets.js';
import type { WebhookPipeline } from '../webhooks/webhook-pipeline.js';
import type { FeaturedDoorOptions } from './featured-types.js';
import { featuredHandler } from './handle-featured-webhook.js';
import { createHandshakeLimiter } from './handshake-limiter.js';
import { webhookFetchClient } from './webhook-fetch-policy.js';

export interface RegisterFeaturedDoorsOptions extends FeaturedDoorOptions {
  pipeline: WebhookPipeline;
  /** Milliseconds since the epoch (auth windows, adapter clocks). */
  clock: () => number;
  /** Tickets of in-process replays (the admin replay of a kept delivery). */
  replayTickets?: ReplayTickets | undefined;
}

/**
 * `POST /webhooks/{slug}` for every registered adapter, each in its own encapsulated scope
 * (registered without fastify-plugin) with its own body parser: the raw bytes whatever the
 * Content-Type (vendors send odd ones; the adapter's declared format decides how they are read,
 * and what it cannot read is 400 invalid_native_payload). The door authenticates itself with the
 * vendor's scheme, outside the v1-signed scope; the connection-keyed rate limit
 * is off too (units resolve to connections only inside the handler; vendors deliver from shared
 * address pools).
 */
export function registerFeaturedDoors(app: FastifyInstance, options: RegisterFeaturedDoorsOptions): void {
  const budget = { ...WEBHOOK_FETCH_BACK, ...options.fetchPolicy };
  for (const adapter of options.adapters ?? registeredAdapters) {
    const handle = featuredHandler({
      adapter,
      store: options.store,
      pipeline: options.pipeline,
      fetchClient: () => webhookFetchClient(budget, options.outbound),
      notes: options.notes,
      handshakeLimiter: createHandshakeLimiter(options.handshakeLimits, options.clock),
      publicUrl: options.publicUrl,
      clock: options.clock,
      replayTickets: options.replayTickets,
    });
    void app.register(async (scope) => {
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
      scope.post(`/webhooks/${adapter.slug}`, { config: { rateLimit: false } }, handle);
    });
  }
}
