// One file: showing a delivery and replaying it share its story, the journal lookup and the recorded request; the routes are their thin HTTP face.
import { randomUUID } from 'node:crypto';
import {
  AUTH_HEADERS,
  ERRORS,
  GatewayError,
  isStorableText,
  NOT_STORABLE,
  verifyV1,
  type Connection,
  type ErrorCode,
  type FieldError,
  type WebhookResult,
} from '@loyalty-gateway/core';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { featuredSlugOf, type Delivery, type FailureCause } from '../journal/index.js';
import type { RecordedRequest } from '../journal/delivery-journal.js';
import { failureCauseOf } from '../journal/failure-cause-of.js';
import { readEnvelope } from '../webhooks/read-envelope.js';
import { earnedOf, tallyEarned } from '../webhooks/earned-tally.js';
import { webhookOutcome } from '../webhooks/webhook-results.js';
import { adminActor } from './admin-actor.js';
import { DeliveriesQuery, ReplayBody } from './admin-schemas.js';
import { ADMIN_ROUTE, type AdminDeps } from './admin-types.js';
import { readOptionalBody, readQuery } from './read-admin-body.js';

const idParam = (params: unknown): string => {
  const id = (params as { id?: unknown }).id;
  if (typeof id !== 'string' || id.length === 0 || id.length > 255)
    throw new GatewayError('validation_failed', { fields: [{ path: 'id', message: 'a journal id or request id' }] });
  // No entry holds a NUL or an unpaired surrogate (they are refused where ids come in); PostgreSQL refuses the query.
  if (!isStorableText(id)) throw new GatewayError('validation_failed', { fields: [{ path: 'id', message: NOT_STORABLE }] });
  return id;
};

/** What a delivery moved in the wallet, after its outcome: `, 12 points earned, stamps Coffee card 4/10` or `, earned nothing (walk_in)`. */
function movedText(entry: Delivery): string {
  if (entry.nothingEarned) return `, earned nothing (${entry.nothingEarned})`;
  const moved = [
    entry.pointsEarned ? `${entry.pointsEarned} points earned` : null,
    entry.pointsReversed ? `${entry.pointsReversed} points reversed` : null,
    entry.stamps ? `stamps ${entry.stamps}` : null,
  ].filter((part) => part !== null);
  return moved.length > 0 ? `, ${moved.join(', ')}` : '';
}

/** A failure's cause as one line: the call, what happened, how long it took. */
export const causeText = (cause: FailureCause): string => `${cause.call}: ${cause.what}${cause.ms === null ? '' : `; took ${cause.ms} ms`}`;

/**
 * The story of one delivery, step by step, as far as the journal saw it: a failure's cause (which
 * call, what happened, how long) and, when a replay answered it, that it was recovered and by which.
 */
export function storyOf(entry: Delivery, replays: readonly Delivery[] = []): Array<{ step: string; outcome: string }> {
  const refusedAt = (codes: string[]) => entry.outcome !== null && entry.outcome !== undefined && codes.includes(entry.outcome);
  const steps: Array<{ step: string; outcome: string }> = [];
  steps.push({
    step: 'connection',
    outcome: entry.connectionId
      ? `${entry.connectionId} (${entry.vendor}/${entry.storeId})`
      : refusedAt(['unknown_connection'])
        ? `no active connection for ${entry.vendor ?? '?'}/${entry.storeId ?? '?'}`
        : 'not resolved',
  });
  if (entry.skewSeconds !== null && entry.skewSeconds !== undefined)
    steps.push({
      step: 'timestamp',
      outcome: `${entry.skewSeconds} s from server time${refusedAt(['stale_timestamp']) ? ': refused (over 300 s)' : ''}`,
    });
  steps.push({
    step: 'signature',
    outcome: refusedAt(['bad_signature'])
      ? "refused: it does not match the request with this connection's secrets"
      : refusedAt(['unknown_connection', 'stale_timestamp', 'missing_field']) || !entry.connectionId
        ? 'not checked'
        : 'verified',
  });
  if (refusedAt(['rate_limited'])) steps.push({ step: 'rate limit', outcome: 'refused (429)' });
  if (entry.fields?.length) steps.push({ step: 'validation', outcome: entry.fields.map((f) => `${f.path}: ${f.message}`).join('; ') });
  if (entry.transactionId)
    steps.push({
      step: 'ledger',
      outcome: `${entry.eventType ?? 'event'} of transaction ${entry.transactionId}${entry.refundId ? `, refund ${entry.refundId}` : ''}: ${entry.outcome ?? '?'}${movedText(entry)}${entry.warning ? ` (${entry.warning})` : ''}`,
    });
  if (entry.failure) steps.push({ step: 'cause', outcome: causeText(entry.failure) });
  steps.push({ step: 'answer', outcome: `HTTP ${entry.status}${entry.outcome ? ` ${entry.outcome}` : ''} in ${entry.durationMs} ms` });
  if (entry.recoveredBy) {
    const replay = replays.find((r) => r.id === entry.recoveredBy);
    steps.push({
      step: 'recovered',
      outcome: `by replay ${entry.recoveredBy}${replay ? ` (HTTP ${replay.status}${replay.outcome ? ` ${replay.outcome}` : ''}, ${replay.receivedAt})` : ''}: nothing left to replay`,
    });
  }
  return steps;
}

const journalOf = (deps: Pick<AdminDeps, 'journal'>) => {
  if (!deps.journal) throw new GatewayError('not_found');
  return deps.journal;
};

/**
 * One delivery (by journal id, or by request id: the newest that proved its connection) with its
 * story and replays, and `matches`: every delivery carrying that request id with its connection
 * (empty when asked by journal id); 404 delivery_not_found.
 */
export async function showDelivery(deps: Pick<AdminDeps, 'journal'>, id: string) {
  const journal = journalOf(deps);
  await journal.flush();
  const found = await journal.get(id);
  if (!found) throw new GatewayError('delivery_not_found');
  const { request: kept, matches, ambiguous: _ambiguous, ...entry } = found;
  const replays = await journal.replaysOf(entry.id);
  // A replay that failed too is recovered with the delivery it replays, by the replay that answered it.
  const original = entry.recoveredBy === null && entry.replayOf && entry.status >= 500 ? await journal.get(entry.replayOf) : null;
  const delivery = original?.recoveredBy ? { ...entry, recoveredBy: original.recoveredBy } : entry;
  return {
    delivery,
    story: storyOf(delivery, replays),
    replays,
    requestKept: kept !== null,
    // Replay is offered for a failure on our side whose request is kept, until a replay answered it.
    replayable: kept !== null && delivery.status >= 500 && delivery.recoveredBy === null,
    matches,
  };
}

/** Hop-by-hop and framing headers of the original request: the injected replay frames its own body. */
const NOT_REPLAYED = ['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'expect'];

type ReplayDeps = Pick<AdminDeps, 'journal' | 'replayPipeline' | 'replayThroughDoor' | 'store' | 'adapterOf'>;

/**
 * Replays a delivery that failed on our side (5xx, request kept), journalled as its own entry
 * naming the original and `replayedBy`; the ledger's unique keys still decide (what landed
 * meanwhile is a duplicate). A generic delivery goes through the exactly-once pipeline again; a
 * featured one through its own door again (its adapter's authentication over the kept bytes, as at
 * the original's receipt, then mapping and the same pipeline). A failed replay is journalled, then
 * thrown (answered like the original endpoint would have).
 */
export async function replayDelivery(
  deps: ReplayDeps,
  id: string,
  replayedBy: string,
  log: Pick<FastifyBaseLogger, 'info'>,
  options: { force?: boolean | undefined } = {},
) {
  const journal = () => journalOf(deps);
  await journal().flush();
  const original = await journal().get(id);
  if (!original) throw new GatewayError('delivery_not_found');
  if (original.ambiguous) {
    const named = original.matches.map((m) => `${m.id} (${m.vendor ?? '?'}/${m.storeId ?? '?'}, HTTP ${m.status})`).join(', ');
    throw new GatewayError('replay_not_available', {
      message: `Deliveries of ${original.matches.length > 1 ? 'several connections' : 'another connection'} carry this request id: replay one by its journal id (${named}).`,
    });
  }
  if (original.status < 500 || !original.request) {
    throw new GatewayError('replay_not_available', {
      message: `Only deliveries that failed on the gateway's side (5xx) are replayed; this one answered HTTP ${original.status}${original.outcome ? ` ${original.outcome}` : ''}.`,
    });
  }
  const slug = featuredSlugOf(original.route);
  if (slug) return replayThroughDoor(deps, { ...original, request: original.request }, slug, replayedBy, log);
  if (original.route !== '/webhooks/generic' || !deps.replayPipeline) {
    throw new GatewayError('replay_not_available', {
      message: `Replay covers webhook deliveries; ${original.route} is a checkout call, which the till retries itself.`,
    });
  }
  const headers = original.request.headers;
  const connection = await deps.store.find(headers['x-service-vendor'] ?? '', headers['x-service-store'] ?? '');
  if (!connection)
    throw new GatewayError('replay_not_available', { message: "The delivery's connection is gone: there is nothing to replay it for." });
  // The present, not the past: the connection must accept this request now. Forced, it is replayed
  // anyway, and its journal entry and the log say so.
  const stale = staleReasons(connection, original.request);
  if (stale.length > 0 && !options.force)
    throw new GatewayError('replay_not_available', {
      message: `The delivery is not replayed: ${stale.join('; ')}. Replay it anyway with {"force": true} (loyalty-gateway admin deliveries replay ID --force); the replay is journalled as forced.`,
    });
  const forced = stale.length > 0;
  const started = Date.now();
  const requestId = `replay-${randomUUID()}`;
  let result: WebhookResult | undefined;
  let failure: unknown;
  const read = readEnvelope(original.request.body);
  try {
    if (read.kind !== 'envelope')
      throw new GatewayError('replay_not_available', { message: 'The kept body is not a sale, refund or void envelope.' });
    result = await deps.replayPipeline(connection, read.envelope);
  } catch (error) {
    failure = error;
  }
  const envelope = read.kind === 'envelope' ? read.envelope : null;
  const outcome = result ? webhookOutcome(result) : failure instanceof GatewayError ? failure.code : 'internal_error';
  const earned = result && envelope ? tallyEarned([earnedOf(envelope, result)]) : undefined;
  journal().record(
    {
      requestId,
      receivedAt: new Date(started),
      method: 'POST',
      route: original.route,
      vendor: connection.vendor,
      storeId: connection.storeId,
      connectionId: connection.id,
      eventType: envelope?.eventType,
      eventId: envelope?.eventId,
      transactionId: envelope?.transaction.id,
      refundId: envelope?.eventType === 'sale.refunded' ? envelope.refund.id : null,
      status: result ? 200 : failure instanceof GatewayError ? failure.statusCode : 500,
      outcome,
      warning: result?.warning,
      durationMs: Date.now() - started,
      replayOf: original.id,
      replayedBy,
      replayForced: forced,
      failure: failure && (failure instanceof GatewayError ? failure.statusCode : 500) >= 500 ? failureCauseOf(failure, outcome) : null,
      pointsEarned: earned?.pointsEarned,
      pointsReversed: earned?.pointsReversed,
      stamps: earned?.stamps,
      nothingEarned: earned?.nothingEarned,
    },
    original.request.body,
    original.request,
  );
  await journal().flush();
  log.info(
    { delivery: original.id, replay: requestId, replayedBy, outcome, ...(forced ? { forced, stale } : {}) },
    forced ? 'delivery replayed, forced past a revoked secret or a deactivated connection' : 'delivery replayed',
  );
  if (failure) throw failure;
  return { replay: { requestId, replayOf: original.id, replayedBy, forced }, outcome, result };
}

/**
 * Why the connection would not accept this kept request today: deactivated, or its signature no
 * longer verifies with any secret the connection holds (rotated with no overlap, or the overlap
 * has ended). The timestamp is not judged: a replay is late by nature.
 */
function staleReasons(connection: Connection, request: RecordedRequest): string[] {
  const reasons: string[] = [];
  if (!connection.active) reasons.push('its connection has been deactivated since (loyalty-gateway admin connections activate ID)');
  const timestamp = request.headers[AUTH_HEADERS.timestamp] ?? '';
  const signature = request.headers[AUTH_HEADERS.signature] ?? '';
  if (!verifyV1(connection.secrets, timestamp, request.body, signature))
    reasons.push('the signing secret it was signed with has been revoked since (rotated with no overlap, or the overlap has ended)');
  return reasons;
}

/** A featured delivery's kept request, injected into its door again with a replay ticket. */
async function replayThroughDoor(
  deps: ReplayDeps,
  original: Delivery & { request: RecordedRequest },
  slug: string,
  replayedBy: string,
  log: Pick<FastifyBaseLogger, 'info'>,
) {
  if (!deps.replayThroughDoor || !deps.adapterOf(slug)) {
    throw new GatewayError('replay_not_available', {
      message: `This gateway has no door ${original.route} any more: ask the vendor to resend, or run a reconciliation.`,
    });
  }
  const requestId = `replay-${randomUUID()}`;
  const headers: Record<string, string> = { ...original.request.headers, 'x-request-id': requestId };
  for (const name of NOT_REPLAYED) delete headers[name];
  const answer = await deps.replayThroughDoor(
    { method: 'POST', url: original.route, headers, payload: original.request.body },
    { replayOf: original.id, replayedBy, receivedAt: Date.parse(original.receivedAt) },
  );
  await journalOf(deps).flush();
  const entry = await journalOf(deps).get(requestId);
  const outcome = entry?.outcome ?? null;
  log.info({ delivery: original.id, replay: requestId, replayedBy, outcome, status: answer.statusCode }, 'delivery replayed');
  const body = parseAnswer(answer.body);
  if (answer.statusCode >= 400) {
    const error = body as { code?: unknown; message?: unknown; fields?: FieldError[] } | null;
    const code = typeof error?.code === 'string' && error.code in ERRORS ? (error.code as ErrorCode) : 'internal_error';
    throw new GatewayError(code, {
      ...(typeof error?.message === 'string' ? { message: error.message } : {}),
      ...(Array.isArray(error?.fields) ? { fields: error.fields } : {}),
    });
  }
  return { replay: { requestId, replayOf: original.id, replayedBy }, outcome, answer: { statusCode: answer.statusCode, body } };
}

const parseAnswer = (text: string): unknown => {
  try {
    return text.length > 0 ? JSON.parse(text) : null;
  } catch {
    return text;
  }
};

/**
 * The delivery journal for support: list (filters, newest first, cursor), one delivery's story,
 * and an audited replay of a delivery that failed on our side (5xx): the kept request goes through
 * the same exactly-once pipeline (the ledger's keys decide: what landed meanwhile is a duplicate),
 * recorded as its own journal entry naming the original and who replayed it.
 */
export function registerDeliveryRoutes(scope: FastifyInstance, deps: AdminDeps): void {
  const journal = () => journalOf(deps);

  scope.get('/deliveries', ADMIN_ROUTE, async (request) => {
    const filter = readQuery(DeliveriesQuery, request.query);
    await journal().flush(); // what this process answered a moment ago is there too
    return journal().list(filter);
  });

  scope.get('/deliveries/:id', ADMIN_ROUTE, async (request) => showDelivery(deps, idParam(request.params)));

  scope.post('/deliveries/:id/replay', ADMIN_ROUTE, async (request) => {
    const { force } = readOptionalBody(ReplayBody, request.body);
    return replayDelivery(deps, idParam(request.params), adminActor(request.headers.authorization), request.log, { force });
  });
}
