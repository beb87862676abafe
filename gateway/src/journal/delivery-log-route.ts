import { DeliveryLogPage, DeliveryLogQuery, GatewayError, type DeliveryLogEntry } from '@loyalty-gateway/core';
import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import { readQuery } from '../admin/read-admin-body.js';
import '../http/fastify-types.js';
import { responseJsonSchema } from '../http/response-json-schema.js';
import { cursorAfter, type Delivery, type DeliveryJournal } from './delivery-journal.js';

/** Delivery log reads per minute per connection by default (GATEWAY_DELIVERY_LOG_RATE_LIMIT): a budget of their own. */
export const DEFAULT_DELIVERY_LOG_RATE_LIMIT = 60;

/** Entries a page shows when the vendor asks for no limit. */
const DEFAULT_LIMIT = 20;

/**
 * Entries one request examines at most when filtering by status, which no index of a connection's
 * entries serves: read in pages of STATUS_PAGE, filtered here, so a filter that matches nothing
 * costs a bounded amount of work on the event loop (SQLite's reads are synchronous), not a read of
 * the connection's whole journal (up to 100,000 entries).
 */
const STATUS_SEARCH = 5_000;
const STATUS_PAGE = 500;

/**
 * What a vendor may see of one of its own entries: what it sent and how it was answered. Not its
 * body or headers (never kept but for replays), its client address, its duration, the gateway's
 * internal cause of a failure, its trace, nor who replayed it.
 */
export function deliveryLogEntryOf(d: Delivery): DeliveryLogEntry {
  const refused = d.status >= 400;
  return {
    requestId: d.requestId,
    receivedAt: d.receivedAt,
    route: d.route,
    eventType: d.eventType ?? null,
    eventId: d.eventId ?? null,
    transactionId: d.transactionId ?? null,
    refundId: d.refundId ?? null,
    status: d.status,
    code: refused ? (d.outcome ?? null) : null,
    outcome: refused ? null : (d.outcome ?? null),
    pointsEarned: d.pointsEarned,
    pointsReversed: d.pointsReversed,
    warning: d.warning ?? null,
    fields: d.fields,
    replay: Boolean(d.replayOf),
  };
}

const journalOff: onRequestHookHandler = (_request, _reply, done) =>
  done(new GatewayError('endpoint_not_enabled', { message: 'The delivery journal is off on this gateway (GATEWAY_JOURNAL_DAYS=0).' }));

/** GET /v1/deliveries while the journal is off (GATEWAY_JOURNAL_DAYS=0): outside the v1-signed scope, 404 endpoint_not_enabled before any credential is looked at. */
export function registerDeliveryLogOff(app: FastifyInstance): void {
  app.get('/v1/deliveries', { config: { rateLimit: false, journal: false }, onRequest: journalOff }, async () => {
    throw new GatewayError('endpoint_not_enabled');
  });
}

/**
 * GET /v1/deliveries: the signed connection's own journal entries, newest first, and only its own:
 * the list is filtered by the connection the v1 signature proved (its id, so a connection made
 * again for the same store starts a new log), whatever the query says. Signed like every request,
 * over `timestamp.` and the empty body; the query is not signed, and any query reads only this
 * connection's entries. On the v1-signed scope. Not journalled itself (a vendor polling its log would fill it with its own
 * reads), on a rate-limit budget of its own.
 */
export function registerDeliveryLog(signed: FastifyInstance, journal: DeliveryJournal, rateLimit: { max?: number | undefined } = {}): void {
  signed.get(
    '/v1/deliveries',
    {
      config: { rateLimit: { max: rateLimit.max ?? DEFAULT_DELIVERY_LOG_RATE_LIMIT }, journal: false },
      schema: { response: { 200: responseJsonSchema(DeliveryLogPage) } },
    },
    async (request): Promise<DeliveryLogPage> => {
      const query = readQuery(DeliveryLogQuery, request.query);
      const filter = {
        connectionId: request.connection!.id,
        since: query.since === undefined ? undefined : new Date(query.since),
        until: query.until === undefined ? undefined : new Date(query.until),
        transactionId: query.transactionId,
      };
      const limit = query.limit ?? DEFAULT_LIMIT;
      if (query.status === undefined) {
        const page = await journal.list({ ...filter, limit, cursor: query.cursor });
        return { deliveries: page.deliveries.map(deliveryLogEntryOf), nextCursor: page.nextCursor };
      }
      // By status: pages of the connection's entries filtered here, at most STATUS_SEARCH of them.
      const found: Delivery[] = [];
      let cursor = query.cursor;
      for (let examined = 0; examined < STATUS_SEARCH; examined += STATUS_PAGE) {
        const page = await journal.list({ ...filter, limit: STATUS_PAGE, cursor });
        for (const delivery of page.deliveries) {
          if (delivery.status !== query.status) continue;
          if (found.length === limit) return { deliveries: found.map(deliveryLogEntryOf), nextCursor: cursorAfter(found.at(-1)!) };
          found.push(delivery);
        }
        if (!page.nextCursor) return { deliveries: found.map(deliveryLogEntryOf), nextCursor: null };
        cursor = page.nextCursor;
      }
      // The search stopped at its bound: what it found (maybe fewer than asked, or none), and where to go on from.
      return { deliveries: found.map(deliveryLogEntryOf), nextCursor: cursor ?? null };
    },
  );
}
