import type { FastifyInstance, FastifyRequest } from 'fastify';
import { clientKey } from '../http/client-key.js';
import { requestIdGenerated } from '../http/request-id.js';
import { journalHandOff } from '../tracing/journal-hand-off.js';
import { traceIdsOf } from '../tracing/request-span.js';
import '../http/fastify-types.js';
import type { DeliveryJournal } from './delivery-journal.js';
import { requestIdTime } from './journal-ids.js';
import { routeOf } from '../http/route-of.js';

/** Headers never kept with a request, even sealed: credentials of the caller. */
const NOT_KEPT = new Set(['authorization', 'cookie', 'proxy-authorization']);

const header = (request: FastifyRequest, name: string): string | undefined => {
  const value = request.headers[name];
  return typeof value === 'string' ? value : undefined;
};

/** The adapter slug of a featured door's path (`/webhooks/shopify` → `shopify`), or undefined (the generic door included). */
export function featuredSlugOf(path: string): string | undefined {
  const slug = /^\/webhooks\/([a-z0-9-]+)$/.exec(path)?.[1];
  return slug === 'generic' ? undefined : slug;
}

function keptHeaders(request: FastifyRequest): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) if (typeof value === 'string' && !NOT_KEPT.has(name)) kept[name] = value;
  return kept;
}

/**
 * One journal entry per request to /webhooks/* and /v1/*, accepted or refused, written after the
 * answer went out (queued; the request never waits for it). The raw request is kept, sealed, only
 * when the gateway failed it (5xx), so the operator can replay it once the cause is fixed, and for
 * a replay itself (which names the delivery it replays and who asked).
 */
export function registerJournalHook(app: FastifyInstance, journal: DeliveryJournal, clock: () => number = Date.now): void {
  const handOff = journalHandOff(journal);
  // A callback hook, not an async one: no promise per request on the earn path.
  app.addHook('onResponse', (request, reply, done) => {
    done();
    const path = request.url.split('?', 1)[0]!;
    if (!path.startsWith('/webhooks/') && !path.startsWith('/v1/')) return;
    if (routeOf(request).config?.journal === false) return;
    const now = clock();
    const connection = request.connection;
    const audit = request.audit;
    const body = Buffer.isBuffer(request.body) ? request.body : undefined;
    const timestamp = Number(header(request, 'x-service-timestamp'));
    handOff(
      request,
      {
        requestId: request.id,
        // A generated request id is a UUIDv7 of the millisecond the request arrived: its entry is
        // received then, and found by that time (journal-ids.ts requestIdTime).
        receivedAt: new Date((requestIdGenerated(request) ? requestIdTime(request.id) : undefined) ?? now - reply.elapsedTime),
        method: request.method,
        route: path,
        vendor: connection?.vendor ?? header(request, 'x-service-vendor') ?? featuredSlugOf(path),
        storeId: connection?.storeId ?? header(request, 'x-service-store'),
        connectionId: connection?.id,
        eventType: audit?.eventType,
        eventId: audit?.eventId,
        transactionId: audit?.transactionId,
        refundId: audit?.refundId,
        status: reply.statusCode,
        outcome: audit?.outcome,
        warning: audit?.warning,
        fields: audit?.fields,
        failure: audit?.failure,
        pointsEarned: audit?.earned?.pointsEarned,
        pointsReversed: audit?.earned?.pointsReversed,
        stamps: audit?.earned?.stamps,
        nothingEarned: audit?.earned?.nothingEarned,
        durationMs: reply.elapsedTime,
        skewSeconds: Number.isFinite(timestamp) && timestamp > 0 ? timestamp - now / 1000 : null,
        replayOf: request.replay?.replayOf,
        replayedBy: request.replay?.replayedBy,
        clientAddress: clientKey(request.ip),
        authenticated: request.authenticated,
        traceId: traceIdsOf(request)?.traceId,
      },
      body,
      (reply.statusCode >= 500 || request.replay) && body ? { body, headers: keptHeaders(request) } : undefined,
    );
  });
}
