import type { FastifyInstance } from 'fastify';
import '../http/fastify-types.js';
import { annotateRequest, traceIdsOf } from './request-span.js';

/**
 * The root span of each traced request says who it was for and how it ended: vendor, connection
 * id, event type and outcome (ids and codes only, never the body). Added in onSend, before
 * @fastify/otel's own onSend (a route hook, run after the instance's) ends the span. Registered
 * only when tracing is on.
 */
export function registerTraceOutcome(app: FastifyInstance): void {
  app.addHook('onSend', (request, _reply, payload, done) => {
    if (traceIdsOf(request) === undefined) return done(null, payload); // not sampled
    const audit = request.audit;
    annotateRequest(request, {
      'loyalty.vendor': request.connection?.vendor,
      'loyalty.connection_id': request.connection?.id,
      'loyalty.event_type': audit?.eventType,
      'loyalty.outcome': audit?.outcome,
    });
    done(null, payload);
  });
}
