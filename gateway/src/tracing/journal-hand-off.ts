import type { FastifyRequest } from 'fastify';
import type { DeliveryJournal } from '../journal/delivery-journal.js';
import { inRequestSpan, requestContext } from './request-span.js';

type Record = DeliveryJournal['record'];

/**
 * How the journal hook hands a request's entry to the journal's queue: as it is, or, with tracing
 * on, in a `journal record` span of the request's trace (after its root span ended: the entry is
 * queued once the answer went out). Decided once, when the hook is registered.
 */
export function journalHandOff(journal: Pick<DeliveryJournal, 'record'>): (request: FastifyRequest, ...entry: Parameters<Record>) => void {
  return (request, input, body, kept) =>
    requestContext(request) === undefined
      ? journal.record(input, body, kept)
      : inRequestSpan(request, 'journal record', { 'loyalty.status': input.status }, () => journal.record(input, body, kept));
}
