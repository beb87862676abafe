import { z } from 'zod';
import { DateTime, searchId } from './common.js';
import { FieldError } from './error.js';

/** Entries one page of the vendor's delivery log holds at most. */
export const DELIVERY_LOG_MAX_LIMIT = 100;

/**
 * `GET /v1/deliveries`'s query (an extension of the partner API): the signed connection's own
 * journal entries, newest first. Strict, as every request of the API: an unknown parameter is a
 * 422 naming it.
 */
export const DeliveryLogQuery = z.strictObject({
  since: DateTime.optional(),
  until: DateTime.optional(),
  status: z
    .string()
    .regex(/^[1-5]\d\d$/, 'must be an HTTP status such as 422')
    .transform(Number)
    .optional(),
  transactionId: searchId.optional(),
  limit: z
    .string()
    .regex(/^\d{1,3}$/, `must be a whole number from 1 to ${DELIVERY_LOG_MAX_LIMIT}`)
    .transform(Number)
    .pipe(z.number().int().min(1, 'must be at least 1').max(DELIVERY_LOG_MAX_LIMIT, `must be at most ${DELIVERY_LOG_MAX_LIMIT}`))
    .optional(),
  cursor: z.string().max(512, 'must be at most 512 characters').optional(),
});
export type DeliveryLogQuery = z.infer<typeof DeliveryLogQuery>;

/**
 * One request the gateway received from the connection, as its journal keeps it: what it was and
 * how it ended. Never its body, its headers or the gateway's internal cause of a failure.
 */
export const DeliveryLogEntry = z.strictObject({
  requestId: z.string(),
  receivedAt: z.string(),
  route: z.string(),
  eventType: z.string().nullable(),
  eventId: z.string().nullable(),
  transactionId: z.string().nullable(),
  refundId: z.string().nullable(),
  /** The HTTP status it was answered with. */
  status: z.number().int(),
  /** A refusal's or a failure's code (4xx, 5xx); null on success. */
  code: z.string().nullable(),
  /** How a success ended (`processed`, `duplicate`, `ignored`, `would_process`, `REDEEMED`, …); null on a refusal or failure. */
  outcome: z.string().nullable(),
  /** Points its sales earned and its refunds reversed; null when nothing of the kind was recorded. */
  pointsEarned: z.number().int().nullable(),
  pointsReversed: z.number().int().nullable(),
  warning: z.string().nullable(),
  /** A validation failure's fields (400 missing_field, 422 validation_failed). */
  fields: z.array(FieldError).nullable(),
  /** An operator's replay of one of the connection's earlier deliveries that failed on the gateway's side. */
  replay: z.boolean(),
});
export type DeliveryLogEntry = z.infer<typeof DeliveryLogEntry>;

/** The answer of `GET /v1/deliveries`. */
export const DeliveryLogPage = z.strictObject({
  deliveries: z.array(DeliveryLogEntry),
  /** Pass as `cursor` (with the same filters) for the next, older page; null when nothing older matches. */
  nextCursor: z.string().nullable(),
});
export type DeliveryLogPage = z.infer<typeof DeliveryLogPage>;
