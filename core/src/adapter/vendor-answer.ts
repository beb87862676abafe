import type { WebhookResult } from '../schemas/envelope.js';
import type { NativeRequest } from './native-request.js';

/** A one-time setup call recognised by an adapter: shown to the operator (and logged). */
export interface Handshake {
  note: string;
  value: string;
}

/** One canonical event's outcome, as the featured door reports it. */
export type FeaturedResult = WebhookResult & {
  storeId: string;
  eventId: string;
  eventType: string;
  transactionId: string;
  refundId?: string | undefined;
  /** refunds.listed: the reversals given back now (the vendor no longer lists them) and the points they returned. */
  refundsWithdrawn?: string[] | undefined;
  pointsRestored?: number | undefined;
};

/**
 * A unit not processed: no active connection for its store, its per-connection check failed, or
 * the adapter could not read it; or one of its events the ledger refused (`refused`: a refund id
 * already used for another order, another currency than its sale), which a redelivery cannot change.
 */
export interface SkippedUnit {
  storeId: string;
  reason: 'unknown_connection' | 'bad_signature' | 'stale_timestamp' | 'unreadable' | 'refused';
  /** For `unreadable`: what is wrong with it; for `refused`: the refusal's code and message (`refund_id_reused: …`). */
  detail?: string | undefined;
}

/** What a featured request came to when it succeeded (processed, duplicate, ignored or nothing to do). */
export interface AcceptedOutcome {
  status: 'accepted';
  results: FeaturedResult[];
  skipped: SkippedUnit[];
  notes: string[];
}

/** The HTTP answer a vendor receives on success. Errors are always the spec's Error body. */
export interface VendorAnswer {
  /** A success the vendor will not retry. */
  status: 200 | 201 | 202 | 204;
  /** Default `application/json; charset=utf-8` for objects and arrays, `text/plain; charset=utf-8` for strings. */
  contentType?: string;
  /** An object or array is sent as JSON; a string or Buffer as is; nothing for 204. */
  body?: Record<string, unknown> | unknown[] | string | Buffer;
}

/**
 * The answer a vendor expects, per outcome, when the default JSON will not do: a plain-text `OK`, a
 * 202, a challenge echoed back on the setup call. Each function is pure; omitted ones answer the
 * default JSON (`defaultAcceptedAnswer`, `defaultHandshakeAnswer`).
 */
export interface ResponseSpec {
  accepted?(outcome: AcceptedOutcome, request: NativeRequest): VendorAnswer;
  handshake?(handshake: Handshake, request: NativeRequest): VendorAnswer;
}

/** The default answer to a processed request: 200 with the outcome as JSON (support reads it; vendors need only the 200). */
export const defaultAcceptedAnswer = (outcome: AcceptedOutcome): VendorAnswer => ({ status: 200, body: { ...outcome } });

/** The default answer to a setup call: 200 `{status: "handshake", note}` (the value goes to the operator, not back to the caller). */
export const defaultHandshakeAnswer = (handshake: Handshake): VendorAnswer => ({
  status: 200,
  body: { status: 'handshake', note: handshake.note },
});

const SUCCESS = new Set([200, 201, 202, 204]);

/** The adapter's answer for an outcome (or the default), checked: a non-2xx status is an adapter bug. */
export function vendorAnswer(
  spec: ResponseSpec | undefined,
  outcome: { kind: 'accepted'; outcome: AcceptedOutcome } | { kind: 'handshake'; handshake: Handshake },
  request: NativeRequest,
): VendorAnswer {
  const answer =
    outcome.kind === 'accepted'
      ? (spec?.accepted?.(outcome.outcome, request) ?? defaultAcceptedAnswer(outcome.outcome))
      : (spec?.handshake?.(outcome.handshake, request) ?? defaultHandshakeAnswer(outcome.handshake));
  if (!SUCCESS.has(answer.status))
    throw new TypeError(`an adapter's ${outcome.kind} answer must be 200, 201, 202 or 204, not ${String(answer.status)}`);
  return answer;
}

/** The Content-Type an answer is sent with. */
export function answerContentType(answer: VendorAnswer): string | undefined {
  if (answer.contentType) return answer.contentType;
  if (answer.body === undefined || answer.status === 204) return undefined;
  if (typeof answer.body === 'string' || Buffer.isBuffer(answer.body)) return 'text/plain; charset=utf-8';
  return 'application/json; charset=utf-8';
}
