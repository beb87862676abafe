import { hash } from 'node:crypto';
import type { Selectable } from 'kysely';
import { createSecretBox } from '../stores/secret-box.js';
import type { NothingEarnedReason } from '../webhooks/nothing-earned.js';
import { ROW_OVERHEAD_BYTES } from './byte-budget.js';
import { clipFields, clipText, type FieldError } from './clip-text.js';
import { clipFailure, parseFailure } from './failure-text.js';
import { fnv1a, idRegion, keyOf, regionOf, requestIdTime, timeOrderedId, transactionKey } from './journal-ids.js';
import { SIZE_COLUMN, type Delivery, type DeliveryInput, type GwDeliveriesTable, type RecordedRequest, type Row } from './journal-types.js';

// An entry as the row the journal writes, and a row as the delivery it reads back.

const SEAL_CONTEXT = 'gw_deliveries.body';
const parseFields = (text: string | null): FieldError[] | null => (text ? (JSON.parse(text) as FieldError[]) : null);
/** A count as stored: a whole number, or null when absent (or not a number). */
const wholeOrNull = (value: number | null | undefined): number | null =>
  value === null || value === undefined || !Number.isFinite(value) ? null : Math.round(value);

/** A stored number read back (PostgreSQL's bigint arrives as text), or null. */
const numberOrNull = (value: number | null): number | null => (value === null ? null : Number(value));

export const toDelivery = (row: Selectable<GwDeliveriesTable>): Delivery => ({
  id: row.id,
  requestId: row.request_id,
  receivedAt: new Date(Number(row.received_at)).toISOString(),
  method: row.method,
  route: row.route,
  vendor: row.vendor,
  storeId: row.store_id,
  connectionId: row.connection_id,
  eventType: row.event_type,
  eventId: row.event_id,
  transactionId: row.transaction_id,
  refundId: row.refund_id,
  status: Number(row.status),
  outcome: row.outcome,
  warning: row.warning,
  fields: parseFields(row.fields),
  durationMs: Number(row.duration_ms),
  skewSeconds: numberOrNull(row.skew_seconds),
  bodySha256: row.body_sha256,
  requestKept: row.body_sealed !== null,
  replayOf: row.replay_of,
  replayedBy: row.replayed_by,
  clientAddress: row.client_address,
  refusals: row.refusals === null ? 1 : Number(row.refusals),
  lastRequestId: row.last_request_id,
  authenticated: row.authenticated === null ? null : Number(row.authenticated) === 1,
  replayForced: Number(row.replay_forced ?? 0) === 1,
  pointsEarned: numberOrNull(row.points_earned),
  pointsReversed: numberOrNull(row.points_reversed),
  stamps: row.stamps,
  nothingEarned: row.nothing_earned as NothingEarnedReason | null,
  failure: parseFailure(row.failure),
  recoveredBy: null,
  traceId: row.trace_id ?? null,
});

/** Rows of entries whose kept requests are sealed with the gateway's master key. */
export function journalRows(masterKey: Buffer) {
  const box = createSecretBox(masterKey);

  /**
   * One entry as its column values, in COLUMNS order (what both writers bind; no object per row).
   * Every text has a cap (clipText, clipFields); ids are cut without a mark, free text says it was
   * clipped. `size_bytes` is what the row stores (the byte budget's measure).
   */
  function row(
    input: DeliveryInput,
    request: RecordedRequest | undefined,
    body: Buffer | undefined,
    id = timeOrderedId(input.receivedAt.getTime()),
    clientAddress = input.clientAddress,
  ): Row {
    const at = input.receivedAt.getTime();
    const transactionId = clipText(input.transactionId, 255, false);
    const requestId = clipText(input.requestId, 128, false)!;
    const requestHash = fnv1a(requestId);
    const connectionId = clipText(input.connectionId, 255, false);
    const values: Row = [
      id,
      requestId,
      regionOf(requestHash),
      // No key when the request id is a UUIDv7 of this entry's own millisecond (the ids the gateway
      // generates): the entry stays out of the request index and is found by the primary key's
      // range of that millisecond (migration 0016).
      requestIdTime(requestId) === at ? null : keyOf(requestHash),
      at,
      clipText(input.method, 16)!,
      clipText(input.route)!,
      clipText(input.vendor),
      clipText(input.storeId),
      connectionId,
      connectionId === null ? null : idRegion(connectionId),
      clipText(input.eventType),
      clipText(input.eventId, 255, false),
      transactionId,
      transactionId === null ? null : transactionKey(transactionId),
      transactionId === null ? null : idRegion(transactionId),
      clipText(input.refundId, 255, false),
      input.status,
      clipText(input.outcome),
      clipText(input.warning, 1000),
      clipFields(input.fields),
      Math.max(0, Math.round(input.durationMs)),
      wholeOrNull(input.skewSeconds),
      body && body.length > 0 ? hash('sha256', body, 'hex') : null,
      request ? box.seal(JSON.stringify({ headers: request.headers, body: request.body.toString('base64') }), SEAL_CONTEXT) : null,
      clipText(input.replayOf, 255, false),
      clipText(input.replayedBy, 255, false),
      clipText(clientAddress, 64),
      null,
      null,
      input.authenticated == null ? null : input.authenticated ? 1 : 0,
      null,
      input.replayForced ? 1 : null,
      wholeOrNull(input.pointsEarned),
      wholeOrNull(input.pointsReversed),
      clipText(input.stamps),
      clipText(input.nothingEarned, 32, false),
      clipFailure(input.failure),
      clipText(input.traceId, 32, false),
    ];
    let size = ROW_OVERHEAD_BYTES;
    for (const value of values) if (typeof value === 'string') size += value.length;
    values[SIZE_COLUMN] = size;
    return values;
  }

  /** A row's kept request, opened (null when none was kept). */
  function requestOf(found: Pick<Selectable<GwDeliveriesTable>, 'body_sealed'>): RecordedRequest | null {
    const kept = found.body_sealed
      ? (JSON.parse(box.open(found.body_sealed, SEAL_CONTEXT)) as { headers: Record<string, string>; body: string })
      : null;
    return kept ? { headers: kept.headers, body: Buffer.from(kept.body, 'base64') } : null;
  }

  return { row, requestOf };
}
