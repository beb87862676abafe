import { DateTime, isKeyableId, vendorText, type CatalogItem, type Envelope, type MapResult } from '@loyalty-gateway/core';
import { toCustomer } from './customer.js';
import { itemDisplayName, toChannel, toDiscountCodes, toItems } from './map-lines.js';
import { paidState } from './paid-in-full.js';
import {
  SquareDispute,
  SquareOrderUpdated,
  SquarePayment,
  SquareRefund,
  type SquareCatalogObject,
  type SquareCatalogVariation,
  type SquareCustomer,
  type SquareEvent,
  type SquareOrder,
} from './native.js';
import { positiveSquareMoney } from './square-money.js';

/** What a notification asks of us, decided from the payload alone. */
export type SquareAction =
  | { kind: 'sale'; payment: SquarePayment }
  | { kind: 'refund'; refund: SquareRefund }
  | { kind: 'order'; order: SquareOrderUpdated }
  | { kind: 'dispute'; dispute: SquareDispute; disputeId: string; paymentId: string }
  | { kind: 'ignore'; note: string; warn?: boolean };

const ignore = (note: string, warn = false): SquareAction => (warn ? { kind: 'ignore', note, warn } : { kind: 'ignore', note });

/**
 * The event types whose COMPLETED payment is a sale. Uncertain: Square documents payment.updated
 * for state changes (card capture, fees added), but a cash or external POS payment is created
 * COMPLETED and may never change state, so it may only ever produce payment.created. Adding
 * 'payment.created' here is safe (both map to the same transaction.id = order id, which the
 * gateway and ledger dedupe) and costs one more order fetch per card sale. A cash sale that never
 * earns is worse than one extra fetch, so both are listed; only COMPLETED payments earn either way.
 */
export const SALE_EVENT_TYPES: readonly string[] = ['payment.created', 'payment.updated'];

/**
 * The event types whose COMPLETED refund is a reversal. Square documents refund.updated as "typically
 * the status changes when a refund is completed", but a refund that is created already COMPLETED
 * (a cash refund) may never be updated: refund.created COMPLETED reverses too. Both carry the same
 * refund.id, the reversal's idempotency key, so a refund that produces both reverses once.
 */
export const REFUND_EVENT_TYPES: readonly string[] = ['refund.created', 'refund.updated'];

/**
 * `order.updated` carries a stub (id, state, version). It matters when an order becomes COMPLETED
 * without a payment completing it: canceling a partly paid invoice makes Square complete the order
 * with one custom-amount line equal to the money kept (the kept money earns then).
 */
export const ORDER_EVENT_TYPES: readonly string[] = ['order.updated'];

/** Chargebacks; `dispute.state.changed` is the deprecated name of `dispute.state.updated` (same payload). */
export const DISPUTE_EVENT_TYPES: readonly string[] = ['dispute.created', 'dispute.state.updated', 'dispute.state.changed'];

/** A dispute in these states is final and the money went back to the cardholder (AcceptDispute: "Square returns the disputed amount"). */
const DISPUTE_LOST: ReadonlySet<string> = new Set(['LOST', 'ACCEPTED']);

/** Refund states Square documents as final without money returned: a reversal already made for one stays (see classify). */
const REFUND_NOT_DONE: ReadonlySet<string> = new Set(['FAILED', 'REJECTED']);

export function classify(event: SquareEvent): SquareAction {
  const object = event.data?.object ?? {};
  if (SALE_EVENT_TYPES.includes(event.type)) {
    const parsed = SquarePayment.safeParse(object.payment);
    if (!parsed.success) return ignore(`${event.type} carried no payment object`);
    const status = parsed.data.status ?? 'UNKNOWN';
    if (status !== 'COMPLETED') return ignore(`Square payment ${parsed.data.id} is ${status}: only COMPLETED payments earn`);
    return { kind: 'sale', payment: parsed.data };
  }
  if (REFUND_EVENT_TYPES.includes(event.type)) {
    const parsed = SquareRefund.safeParse(object.refund);
    if (!parsed.success) return ignore(`${event.type} carried no refund object`);
    const status = parsed.data.status ?? 'UNKNOWN';
    // Square documents FAILED as the end of a PENDING refund whose funds could not be secured, and
    // no change from COMPLETED to FAILED: should one come, its reversal stands (logged for the operator).
    if (REFUND_NOT_DONE.has(status))
      return ignore(
        `Square refund ${parsed.data.id} is ${status}: only COMPLETED refunds reverse (a reversal already made for it stands: Square documents no change from COMPLETED)`,
        true,
      );
    if (status !== 'COMPLETED') return ignore(`Square refund ${parsed.data.id} is ${status}: only COMPLETED refunds reverse`);
    return { kind: 'refund', refund: parsed.data };
  }
  if (ORDER_EVENT_TYPES.includes(event.type)) {
    const parsed = SquareOrderUpdated.safeParse(object.order_updated);
    if (!parsed.success) return ignore(`${event.type} carried no order_updated object`);
    const state = parsed.data.state ?? 'UNKNOWN';
    if (state === 'CANCELED')
      return ignore(`Square order ${parsed.data.order_id} is CANCELED: a canceled order is not paid, nothing to earn`);
    if (state !== 'COMPLETED')
      return ignore(
        `Square order ${parsed.data.order_id} is ${state}: an order earns when a payment pays it in full or when it is COMPLETED`,
      );
    return { kind: 'order', order: parsed.data };
  }
  if (DISPUTE_EVENT_TYPES.includes(event.type)) {
    // Square's examples put the dispute at data.object.dispute; its schema names the key `object`.
    const parsed = SquareDispute.safeParse(object.dispute ?? object.object);
    if (!parsed.success) return ignore(`${event.type} carried no dispute object`);
    const dispute = parsed.data;
    const disputeId = dispute.id ?? dispute.dispute_id;
    if (!disputeId) return ignore(`${event.type} carried a dispute without an id`);
    const state = dispute.state ?? 'UNKNOWN';
    if (!DISPUTE_LOST.has(state))
      return ignore(`Square dispute ${disputeId} is ${state}: only a LOST or ACCEPTED dispute reverses (nothing was reversed for it)`);
    const paymentId = dispute.disputed_payment?.payment_id;
    if (!paymentId) return ignore(`Square dispute ${disputeId} names no disputed payment: nothing to reverse`);
    return { kind: 'dispute', dispute, disputeId, paymentId };
  }
  if (event.type.startsWith('invoice.'))
    return ignore(`Square ${event.type} moves no money by itself: invoice payments arrive as payment.*, their refunds as refund.*`);
  return ignore(`Square event type ${event.type} is not acted on`);
}

/** The first value that is a valid RFC 3339 timestamp (Square sends up to nanoseconds). */
export function firstTimestamp(...candidates: Array<string | null | undefined>): string | null {
  for (const candidate of candidates) if (candidate && DateTime.safeParse(candidate).success) return candidate;
  return null;
}

const isCurrency = (value: string | null | undefined): value is string => !!value && /^[A-Z]{3}$/.test(value);

export interface SaleInput {
  event: SquareEvent;
  storeId: string;
  /** The COMPLETED payment the event carried; null for an order.updated (the order read back alone). */
  payment: SquarePayment | null;
  /** The fetched order; null when the payment names none. */
  order: SquareOrder | null;
  customer: SquareCustomer | null;
  /** Fallback for occurredAt when Square gives no usable timestamp. */
  receivedAt: string;
}

/**
 * An order paid in full → sale.completed for the ORDER (transaction.id = order id, the id a POS
 * sends as externalTransactionId and the id Square refunds carry). Total = the order's
 * total_money (after discounts; includes tax and tip, the same terms Square refunds are in).
 * An order not yet paid in full (a deposit, the first of several tenders) earns nothing yet: the
 * note says how much of it is received (paid-in-full.ts). A payment without an order becomes a
 * sale with no items, total from the payment, keyed by the payment id.
 */
export function toSaleEnvelopes(input: SaleInput): MapResult {
  const { event, payment, order } = input;
  const transactionId = payment?.order_id ?? order?.id ?? payment?.id;
  if (!transactionId) return { envelopes: [], note: 'Square named neither a payment nor an order: nothing to earn' };
  const money = order ? order.total_money : (payment?.total_money ?? payment?.amount_money);
  const total = positiveSquareMoney(money);
  const currency = money?.currency;
  if (total === null || !isCurrency(currency)) {
    return { envelopes: [], note: `Square order ${transactionId} has no paid total > 0: nothing to earn` };
  }
  if (order) {
    const paid = paidState(order, payment, money?.amount ?? 0, currency);
    if (!paid.paid) return { envelopes: [], note: paid.note };
  }
  const customer = toCustomer(payment?.buyer_email_address, input.customer);
  const discountCodes = toDiscountCodes(order?.discounts);
  const envelope: Envelope = {
    eventId: event.event_id,
    eventType: 'sale.completed',
    occurredAt:
      firstTimestamp(order?.closed_at, payment?.updated_at, payment?.created_at, order?.updated_at, event.created_at) ?? input.receivedAt,
    store: { id: input.storeId },
    transaction: {
      id: transactionId,
      total,
      currency,
      channel: toChannel(order?.source?.name),
      ...(customer ? { customer } : {}),
      items: toItems(order?.line_items),
      ...(discountCodes.length > 0 ? { discountCodes } : {}),
    },
  };
  return { envelopes: [envelope] };
}

/**
 * A COMPLETED refund → sale.refunded naming `saleTransactionId`: the sale's order, resolved through
 * the refunded payment (api.ts, saleOfRefund; `refund.order_id` is the refund's own order).
 * amount = amount_money.
 */
export function toRefundEnvelopes(
  event: SquareEvent,
  refund: SquareRefund,
  saleTransactionId: string,
  storeId: string,
  receivedAt: string,
): MapResult {
  const amount = positiveSquareMoney(refund.amount_money);
  const currency = refund.amount_money?.currency;
  const transactionId = saleTransactionId;
  if (amount === null || !isCurrency(currency))
    return { envelopes: [], note: `Square refund ${refund.id} has no amount > 0: nothing to reverse` };
  const envelope: Envelope = {
    eventId: event.event_id,
    eventType: 'sale.refunded',
    occurredAt: firstTimestamp(refund.updated_at, refund.created_at, event.created_at) ?? receivedAt,
    store: { id: storeId },
    transaction: { id: transactionId, currency },
    refund: { id: refund.id, amount },
  };
  return { envelopes: [envelope] };
}

/**
 * A LOST or ACCEPTED dispute → sale.refunded of the disputed payment's sale, keyed
 * `dispute:<dispute id>` (one reversal per dispute, whichever of its events arrives, however
 * often), amount = the disputed `amount_money` ("can be less than the total transaction amount").
 */
export function toDisputeEnvelopes(
  event: SquareEvent,
  dispute: SquareDispute,
  disputeId: string,
  saleTransactionId: string,
  storeId: string,
  receivedAt: string,
): MapResult {
  const amount = positiveSquareMoney(dispute.amount_money);
  const currency = dispute.amount_money?.currency;
  if (amount === null || !isCurrency(currency))
    return { envelopes: [], note: `Square dispute ${disputeId} has no disputed amount > 0: nothing to reverse` };
  const envelope: Envelope = {
    eventId: event.event_id,
    eventType: 'sale.refunded',
    occurredAt: firstTimestamp(dispute.updated_at, event.created_at, dispute.created_at) ?? receivedAt,
    store: { id: storeId },
    transaction: { id: saleTransactionId, currency },
    refund: { id: `dispute:${disputeId}`, amount },
  };
  return { envelopes: [envelope] };
}

type Presence = Pick<
  SquareCatalogVariation,
  'is_deleted' | 'present_at_all_locations' | 'present_at_location_ids' | 'absent_at_location_ids'
>;

/** Square's location rule: all locations minus `absent_at_location_ids`, or only `present_at_location_ids`. */
export function presentAt(object: Presence, locationId: string): boolean {
  if (object.is_deleted) return false;
  if (object.present_at_all_locations === false) return (object.present_at_location_ids ?? []).includes(locationId);
  return !(object.absent_at_location_ids ?? []).includes(locationId);
}

/**
 * One catalog ITEM → one CatalogItem per variation (externalId = variation id, the id order lines
 * carry). The variation name is appended when the item has more than one variation. Inactive when
 * the item or variation is deleted, archived, or not sold at this connection's location. Category
 * is omitted (only an id here; resolving it costs another call per page).
 */
export function toCatalogItems(object: SquareCatalogObject, locationId: string): CatalogItem[] {
  if (object.type !== 'ITEM' || !object.item_data) return [];
  const itemName = object.item_data.name?.trim() || object.id;
  const variations = object.item_data.variations ?? [];
  const itemActive = presentAt(object, locationId) && object.item_data.is_archived !== true;
  // A variation whose id cannot key an item is left out (one invalid item would fail the pull).
  return variations
    .filter((variation) => isKeyableId(variation.id))
    .map((variation) => {
      const data = variation.item_variation_data;
      const name = variations.length > 1 ? itemDisplayName(itemName, data?.name) : itemName;
      const price = positiveSquareMoney(data?.price_money);
      const sku = data?.sku?.trim();
      return {
        externalId: variation.id,
        name: vendorText(name),
        ...(sku ? { sku: vendorText(sku) } : {}),
        ...(price !== null ? { price } : {}),
        isActive: itemActive && presentAt(variation, locationId),
      };
    });
}
