import { z } from 'zod';
import { NonNegativeMoney, PositiveMoney } from '../money.js';
import { validationError } from '../validation.js';
import { Currency, CustomerIdentifier, DateTime, Store, id, text } from './common.js';

export const Item = z.strictObject({
  /** The vendor's product or variant id; the spec gives no maximum (the 1 MiB body bounds it). */
  id: z.string().optional(),
  name: text(255),
  sku: text(255).optional(),
  quantity: z.number().int({ message: 'must be an integer' }).min(1, { message: 'must be at least 1' }),
  unitPrice: PositiveMoney,
});
export type Item = z.infer<typeof Item>;

export const DiscountCode = z.strictObject({
  code: text(255),
  amount: NonNegativeMoney.optional(),
  type: text(50).optional(),
});
export type DiscountCode = z.infer<typeof DiscountCode>;

export const Transaction = z.strictObject({
  id: id(255),
  total: PositiveMoney,
  currency: Currency,
  channel: text(50).optional(),
  customer: CustomerIdentifier.optional(),
  items: z.array(Item),
  discountCodes: z.array(DiscountCode).optional(),
});
export type Transaction = z.infer<typeof Transaction>;

/** On `sale.refunded` the transaction names the original sale: only `id` and `currency` are required. */
export const RefundedTransaction = Transaction.partial().required({ id: true, currency: true });
export type RefundedTransaction = z.infer<typeof RefundedTransaction>;

export const Refund = z.strictObject({
  id: id(255),
  amount: PositiveMoney.optional(),
});
export type Refund = z.infer<typeof Refund>;

export const KNOWN_EVENT_TYPES = ['sale.completed', 'sale.refunded', 'sale.voided'] as const;
export type EventType = (typeof KNOWN_EVENT_TYPES)[number];

const base = { eventId: id(255), occurredAt: DateTime, store: Store };

export const SaleCompletedEnvelope = z.strictObject({
  ...base,
  eventType: z.literal('sale.completed'),
  transaction: Transaction,
});
export const SaleVoidedEnvelope = z.strictObject({
  ...base,
  eventType: z.literal('sale.voided'),
  transaction: Transaction,
});
export const SaleRefundedEnvelope = z.strictObject({
  ...base,
  eventType: z.literal('sale.refunded'),
  transaction: RefundedTransaction,
  refund: Refund,
});

/** The canonical envelope of the earn/refund webhook (generic body; what featured adapters map to). */
export const Envelope = z.discriminatedUnion('eventType', [SaleCompletedEnvelope, SaleRefundedEnvelope, SaleVoidedEnvelope]);
export type Envelope = z.infer<typeof Envelope>;
export type SaleCompletedEnvelope = z.infer<typeof SaleCompletedEnvelope>;
export type SaleRefundedEnvelope = z.infer<typeof SaleRefundedEnvelope>;

export const isKnownEventType = (value: unknown): value is EventType =>
  typeof value === 'string' && (KNOWN_EVENT_TYPES as readonly string[]).includes(value);

/**
 * What every envelope shares, for a body whose eventType names no shape (missing, or not one of
 * the three): the discriminated union would report eventType alone. The transaction is checked as
 * on `sale.refunded` (the loosest: `id` and `currency` required, the rest validated when present).
 */
const SharedEnvelope = z.strictObject({
  eventId: base.eventId,
  eventType: z.enum(KNOWN_EVENT_TYPES, { message: `must be one of ${KNOWN_EVENT_TYPES.join(', ')}` }),
  occurredAt: base.occurredAt,
  store: base.store,
  transaction: RefundedTransaction,
  refund: Refund.optional(),
});

/**
 * Parse an envelope, or throw the validation error (400 missing_field / 422 validation_failed)
 * listing every problem, also when eventType is missing or invalid.
 */
export function parseEnvelope(input: unknown): Envelope {
  const result = Envelope.safeParse(input);
  if (result.success) return result.data;
  const eventType = input !== null && typeof input === 'object' ? (input as Record<string, unknown>).eventType : undefined;
  if (isKnownEventType(eventType)) throw validationError(input, result.error);
  throw validationError(input, SharedEnvelope.safeParse(input).error ?? result.error);
}

export const StampUpdate = z.strictObject({
  rewardId: z.string(),
  rewardTitle: z.string(),
  current: z.number().int(),
  required: z.number().int(),
  completed: z.boolean(),
});
export type StampUpdate = z.infer<typeof StampUpdate>;

export const WebhookStatus = z.enum(['processed', 'duplicate', 'ignored']);
export type WebhookStatus = z.infer<typeof WebhookStatus>;

/**
 * Response of the earn webhook. `pointsReversed` / `pointsReCredited` are additions beyond the
 * spec's table, present only on `sale.refunded` results (see docs/decisions.md).
 */
export const WebhookResult = z.strictObject({
  status: WebhookStatus,
  membershipId: z.string(),
  pointsEarned: z.number().int(),
  stampsUpdated: z.array(StampUpdate),
  warning: z.string().nullable(),
  pointsReversed: z.number().int().optional(),
  pointsReCredited: z.number().int().optional(),
});
export type WebhookResult = z.infer<typeof WebhookResult>;
