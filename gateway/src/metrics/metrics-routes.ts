import { GatewayError } from '@loyalty-gateway/core';
import Fastify, { type FastifyInstance } from 'fastify';
import { adminAuth } from '../admin/admin-auth.js';
import '../http/fastify-types.js';
import type { GatewayMetrics } from './gateway-metrics.js';
import { routeOf } from '../http/route-of.js';

/**
 * Outcomes of the webhook doors (the request audit's `outcome`, or a featured batch's `outcomes`)
 * are counted in gateway_earn_outcomes_total: the generic door and every featured door, each of
 * which is a route of its own (`/webhooks/shopify`); a processed sale that earned nothing with
 * `reason` (the audit's earned reasons, NOTHING_EARNED_REASONS).
 */
const isWebhookRoute = (route: string): boolean => route.startsWith('/webhooks/');

export interface MetricsRouteOptions {
  metrics: GatewayMetrics;
  /** GATEWAY_ADMIN_TOKEN: GET /metrics on the main listener needs it; without one the route answers 404. */
  adminToken?: string | undefined;
}

/**
 * Records every answered request (route template, status, vendor, duration; webhook outcomes;
 * 429s) and serves GET /metrics on the main listener behind the admin bearer token.
 */
export function registerMetrics(app: FastifyInstance, options: MetricsRouteOptions): void {
  const { metrics } = options;
  // A callback hook: no promise per request.
  app.addHook('onResponse', (request, reply, done) => {
    const route = routeOf(request).url ?? 'unmatched';
    const vendor = request.connection?.vendor ?? '-';
    const status = reply.statusCode;
    metrics.requests.inc({ route, status: String(status), vendor });
    metrics.requestDuration.observe({ route }, reply.elapsedTime / 1000);
    if (status === 429) metrics.rateLimited.inc({ vendor });
    const audit = request.audit;
    if (audit && isWebhookRoute(route)) {
      const counts: ReadonlyArray<readonly [string, number]> = audit.outcomes ?? (audit.outcome ? [[audit.outcome, 1]] : []);
      // Processed sales that earned nothing are counted under their reason (a fixed set), the others as before:
      // summed over `reason`, `processed` is every processed event. A batch that failed is counted by its error only.
      const reasons = counts.some(([outcome]) => outcome === 'processed') ? (audit.earned?.reasons ?? []) : [];
      let earnedNothing = 0;
      for (const [reason, n] of reasons) {
        metrics.earnOutcomes.inc({ outcome: 'processed', reason }, n);
        earnedNothing += n;
      }
      for (const [outcome, n] of counts) {
        const left = outcome === 'processed' ? n - earnedNothing : n;
        if (left > 0) metrics.earnOutcomes.inc({ outcome }, left);
      }
    }
    done();
  });

  const token = options.adminToken;
  app.get('/metrics', token ? { onRequest: adminAuth(token) } : {}, async (_request, reply) => {
    if (!token) throw new GatewayError('not_found');
    const { contentType, body } = await metrics.render();
    return reply.type(contentType).send(body);
  });
}

/**
 * GATEWAY_METRICS_PORT: the same exposition without authentication on a listener of its own, for a
 * Prometheus scraper on a private network (bound to 127.0.0.1 unless GATEWAY_METRICS_HOST says).
 */
export async function startMetricsListener(
  metrics: GatewayMetrics,
  port: number,
  host: string,
): Promise<{ port: number; close(): Promise<void> }> {
  const server = Fastify({ logger: false });
  server.get('/metrics', async (_request, reply) => {
    const { contentType, body } = await metrics.render();
    return reply.type(contentType).send(body);
  });
  await server.listen({ port, host });
  const address = server.server.address();
  return { port: typeof address === 'object' && address ? address.port : port, close: () => server.close() };
}
