import { createHash, randomUUID } from 'node:crypto';
import { GatewayError, type WebhookResult } from '@loyalty-gateway/core';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Delivery } from '../journal/index.js';
import { readEnvelope } from '../webhooks/read-envelope.js';
import { webhookOutcome } from '../webhooks/webhook-results.js';
import { DeliveriesQuery, EmptyBody } from './admin-schemas.js';
import { ADMIN_ROUTE, type AdminDeps } from './admin-types.js';
import { readOptionalBody, readQuery } from './read-admin-body.js';

const idParam = (params: unknown): string => {
  const id = (params as { id?: unknown }).id;
  if (typeof id !== 'string' || id.length === 0 || id.length > 255) throw new GatewayError('validation_failed', { fields: [{ path: 'id', message: 'a journal id or request id' }] });
  return id;
};

/** The story of one delivery, step by step, as far as the journal saw it. */
export function storyOf(entry: Delivery): Array<{ step: string; outcome: string }> {
  const refusedAt = (codes: string[]) => entry.outcome !== null && entry.outcome !== undefined && codes.includes(entry.outcome);
  const steps: Array<{ step: string; outcome: string }> = [];
  steps.push({ step: 'connection', outcome: entry.connectionId ? `${entry.connectionId} (${entry.vendor}/${entry.storeId})` : refusedAt(['unknown_connection']) ? `no active connection for ${entry.vendor ?? '?'}/${entry.storeId ?? '?'}` : 'not resolved' });
  if (entry.skewSeconds !== null && entry.skewSeconds !== undefined) steps.push({ step: 'timestamp', outcome: `${entry.skewSeconds} s from server time${refusedAt(['stale_timestamp']) ? ': refused (over 300 s)' : ''}` });
  steps.push({ step: 'signature', outcome: refusedAt(['bad_signature']) ? 'refused: it does not match the request with this connection\'s secrets' : refusedAt(['unknown_connection', 'stale_timestamp', 'missing_field']) || !entry.connectionId ? 'not checked' : 'verified' });
  if (refusedAt(['rate_limited'])) steps.push({ step: 'rate limit', outcome: 'refused (429)' });
  if (entry.fields?.length) steps.push({ step: 'validation', outcome: entry.fields.map((f) => `${f.path}: ${f.message}`).join('; ') });
  if (entry.transactionId) steps.push({ step: 'ledger', outcome: `${entry.eventType ?? 'event'} of transaction ${entry.transactionId}${entry.refundId ? `, refund ${entry.refundId}` : ''}: ${entry.outcome ?? '?'}${entry.warning ? ` (${entry.warning})` : ''}` });
  steps.push({ step: 'answer', outcome: `HTTP ${entry.status}${entry.outcome ? ` ${entry.outcome}` : ''} in ${entry.durationMs} ms` });
  return steps;
}

const journalOf = (deps: Pick<AdminDeps, 'journal'>) => {
  if (!deps.journal) throw new GatewayError('not_found');
  return deps.journal;
};

/** One delivery (by journal id or request id) with its story and replays; 404 delivery_not_found. */
export async function showDelivery(deps: Pick<AdminDeps, 'journal'>, id: string) {
  const journal = journalOf(deps);
  await journal.flush();
  const found = await journal.get(id);
  if (!found) throw new GatewayError('delivery_not_found');
  const { request: kept, ...delivery } = found;
  return { delivery, story: storyOf(delivery), replays: await journal.replaysOf(delivery.id), requestKept: kept !== null };
}

/**
 * Replays a delivery that failed on our side (5xx, request kept) through the exactly-once pipeline,
 * journalled as its own entry naming the original and `replayedBy`. A failed replay is journalled, then thrown.
 */
export async function replayDelivery(deps: Pick<AdminDeps, 'journal' | 'replayPipeline' | 'store'>, id: string, replayedBy: string, log: Pick<FastifyBaseLogger, 'info'>) {
  const journal = () => journalOf(deps);
  await journal().flush();
  const original = await journal().get(id);
  if (!original) throw new GatewayError('delivery_not_found');
  if (original.status < 500 || !original.request) {
    throw new GatewayError('replay_not_available', { message: `Only deliveries that failed on the gateway's side (5xx) are replayed; this one answered HTTP ${original.status}${original.outcome ? ` ${original.outcome}` : ''}.` });
  }
  if (original.route !== '/webhooks/generic' || !deps.replayPipeline) {
    throw new GatewayError('replay_not_available', { message: `Replay covers /webhooks/generic deliveries; ${original.route} is not replayed yet: ask the vendor to resend, or run a reconciliation (loyalty-gateway admin reconcile run ID).` });
  }
  const headers = original.request.headers;
  const connection = await deps.store.find(headers['x-service-vendor'] ?? '', headers['x-service-store'] ?? '');
  if (!connection || !connection.active) throw new GatewayError('replay_not_available', { message: 'The delivery\'s connection is gone or deactivated: activate it first (loyalty-gateway admin connections activate ID).' });
  const started = Date.now();
  const requestId = `replay-${randomUUID()}`;
  let result: WebhookResult | undefined;
  let failure: unknown;
  const read = readEnvelope(original.request.body);
  try {
    if (read.kind !== 'envelope') throw new GatewayError('replay_not_available', { message: 'The kept body is not a sale, refund or void envelope.' });
    result = await deps.replayPipeline(connection, read.envelope);
  } catch (error) {
    failure = error;
  }
  const envelope = read.kind === 'envelope' ? read.envelope : null;
  journal().record({
    requestId, receivedAt: new Date(started), method: 'POST', route: original.route, vendor: connection.vendor, storeId: connection.storeId, connectionId: connection.id,
    eventType: envelope?.eventType, eventId: envelope?.eventId, transactionId: envelope?.transaction.id, refundId: envelope?.eventType === 'sale.refunded' ? envelope.refund.id : null,
    status: result ? 200 : failure instanceof GatewayError ? failure.statusCode : 500, outcome: result ? webhookOutcome(result) : failure instanceof GatewayError ? failure.code : 'internal_error',
    warning: result?.warning, durationMs: Date.now() - started, replayOf: original.id, replayedBy,
  }, original.request.body, original.request);
  await journal().flush();
  log.info({ delivery: original.id, replay: requestId, replayedBy, outcome: result ? webhookOutcome(result) : 'failed' }, 'delivery replayed');
  if (failure) throw failure;
  return { replay: { requestId, replayOf: original.id, replayedBy }, result };
}

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
    readOptionalBody(EmptyBody, request.body);
    const replayedBy = `admin:${createHash('sha256').update(request.headers.authorization ?? '').digest('hex').slice(0, 12)}`;
    return replayDelivery(deps, idParam(request.params), replayedBy, request.log);
  });
}
