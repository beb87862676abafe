import { z } from 'zod';
import { DateTime, Store, id } from './common.js';
import { SaleCompletedEnvelope, SaleRefundedEnvelope, SaleVoidedEnvelope, type Envelope } from './envelope.js';

/**
 * What a featured adapter that reads an order's whole state (WooCommerce's order, Clover's
 * fetched order) says about its reversals: the refunds, voids and cancellations the vendor still
 * lists for the order, as of `occurredAt` (the vendor's modification time of that state). The
 * ledger gives back every reversal of the order it recorded at or before that time and that is no
 * longer listed (a refund the merchant deleted or voided, a cancellation undone), once
 * (LoyaltyEngine.withdrawRefunds). Not part of the partner API: the generic door never accepts it.
 */
export const RefundsListedEnvelope = z.strictObject({
  eventId: id(255),
  eventType: z.literal('refunds.listed'),
  /** The vendor's time of this state: reversals recorded after it are newer and never withdrawn by it. */
  occurredAt: DateTime,
  store: Store,
  transaction: z.strictObject({ id: id(255) }),
  /** Every reversal id the vendor lists for the order now (the ids its sale.refunded envelopes carry). */
  refundIds: z.array(id(255)),
});
export type RefundsListedEnvelope = z.infer<typeof RefundsListedEnvelope>;

/** What a featured adapter may produce: the partner API's three envelopes, and refunds.listed. */
export const FeaturedEnvelope = z.discriminatedUnion('eventType', [
  SaleCompletedEnvelope,
  SaleRefundedEnvelope,
  SaleVoidedEnvelope,
  RefundsListedEnvelope,
]);
export type FeaturedEnvelope = Envelope | RefundsListedEnvelope;
