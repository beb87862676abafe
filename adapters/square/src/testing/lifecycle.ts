import { loadFixtures } from '@loyalty-gateway/core/testing';

/**
 * Square payloads for the money lifecycle (README, "Money lifecycle") that no Square document shows
 * whole, assembled from documented parts. Each builder starts from one of Square's own examples
 * (src/fixtures, unedited; SOURCES.md names each) and changes only the fields listed in its comment:
 * ids, amounts, states and times, so payments, orders, refunds and disputes refer to one another.
 * Tests only.
 */
const fixtures = loadFixtures(new URL('../fixtures/', import.meta.url));

type Json = Record<string, any>;
const copy = (name: string): Json => fixtures.json<Json>(name);
const usd = (amount: number) => ({ amount, currency: 'USD' });

/**
 * Square's documented invoice with a DEPOSIT and a BALANCE request (ListInvoicesResponse example,
 * `invoices[1]`): deposit 25 % = 1000 paid, balance 3000 due, status PARTIALLY_PAID, order
 * `a65jnS8NXbfprvGJzY9F4fQTuaB`, recipient customer `JDKYHBWT1D4F8MFH63DBMEN8Y4`.
 */
export const depositInvoice: Json = copy('list-invoices-response-deposit-partially-paid.json').invoices[1];
const [depositRequest, balanceRequest] = depositInvoice.payment_requests as Json[];
/** The invoice's amounts in cents, read from its payment requests (deposit + balance = the order total). */
export const INVOICE = {
  orderId: depositInvoice.order_id as string,
  customerId: depositInvoice.primary_recipient.customer_id as string,
  deposit: depositRequest!.computed_amount_money.amount as number,
  balance: balanceRequest!.computed_amount_money.amount as number,
  total: (depositRequest!.computed_amount_money.amount + balanceRequest!.computed_amount_money.amount) as number,
};

export interface PaymentParts {
  eventId: string;
  paymentId: string;
  orderId: string;
  /** Cents: amount_money, approved_money and total_money (no tip). */
  amount: number;
  locationId: string;
  updatedAt: string;
  status?: string;
  type?: 'payment.created' | 'payment.updated';
  /** Payment.buyer_email_address (documented field; Square's example has none). */
  buyerEmail?: string;
}

/**
 * A payment.updated: Square's documented example (`payment-updated-webhook.json`, COMPLETED card
 * payment of 100) with its event id, payment id, order id, location, amounts, status and times
 * replaced. What ListPayments and GetPayment answer for it is its `data.object.payment`.
 */
export function paymentEvent(parts: PaymentParts): Json {
  const event = copy('payment-updated-webhook.json');
  const payment = event.data.object.payment;
  event.event_id = parts.eventId;
  event.type = parts.type ?? 'payment.updated';
  event.created_at = parts.updatedAt;
  event.data.id = parts.paymentId;
  Object.assign(payment, {
    id: parts.paymentId,
    order_id: parts.orderId,
    location_id: parts.locationId,
    status: parts.status ?? 'COMPLETED',
    amount_money: usd(parts.amount),
    approved_money: usd(parts.amount),
    total_money: usd(parts.amount),
    updated_at: parts.updatedAt,
    ...(parts.buyerEmail ? { buyer_email_address: parts.buyerEmail } : {}),
  });
  return event;
}

/** The payment object of a payment event: what GetPayment (`{ payment }`) and ListPayments answer. */
export const paymentOf = (event: Json): Json => event.data.object.payment;

/**
 * One entry of `Order.tenders`: the first CAPTURED card tender of Square's documented PayOrder
 * response (`pay-order-response-split-tender.json`) with its id / payment_id (the payment's id),
 * amount, location and order replaced. `status` replaces `card_details.status` (AUTHORIZED,
 * CAPTURED, VOIDED, FAILED).
 */
export function tender(paymentId: string, amount: number, orderId: string, locationId: string, status = 'CAPTURED'): Json {
  const documented = copy('pay-order-response-split-tender.json').order.tenders[0];
  return {
    ...documented,
    id: paymentId,
    payment_id: paymentId,
    transaction_id: orderId,
    location_id: locationId,
    amount_money: usd(amount),
    card_details: { ...documented.card_details, status },
  };
}

export interface OrderParts {
  id: string;
  locationId: string;
  state: 'OPEN' | 'COMPLETED' | 'CANCELED';
  /** Cents. */
  total: number;
  tenders: Json[];
  updatedAt: string;
  customerId?: string;
  /** Order.net_amount_due_money, when the test wants it (Square defines it in one sentence only). */
  netDue?: number;
  closedAt?: string;
  lineItems?: Json[];
}

/**
 * A RetrieveOrder answer `{ order }` shaped like Square's documented one
 * (`retrieve-order-response-open.json`: its created_at and version are kept), with the id,
 * location, customer, state, total, tenders, net amount due and times given. Its line items and
 * discounts are left out unless given: an invoice's order lines are not in any example.
 */
export function assembledOrder(parts: OrderParts): Json {
  const documented = copy('retrieve-order-response-open.json').order;
  return {
    order: {
      id: parts.id,
      location_id: parts.locationId,
      ...(parts.customerId ? { customer_id: parts.customerId } : {}),
      ...(parts.lineItems ? { line_items: parts.lineItems } : {}),
      state: parts.state,
      total_money: usd(parts.total),
      tenders: parts.tenders,
      ...(parts.netDue !== undefined ? { net_amount_due_money: usd(parts.netDue) } : {}),
      created_at: documented.created_at,
      updated_at: parts.updatedAt,
      ...(parts.closedAt ? { closed_at: parts.closedAt } : {}),
      version: documented.version,
    },
  };
}

/**
 * The line Square puts on a canceled PARTIALLY_PAID invoice's order: "replaces existing line items
 * with a new CUSTOM_AMOUNT line item totaling the partially paid amount" (developer.squareup.com
 * docs/invoices-api/cancel-delete-invoices). Shape: SPEC OrderLineItem (`item_type` CUSTOM_AMOUNT,
 * quantity "1"); its name is not documented, so it has none.
 */
export function customAmountLine(amount: number): Json {
  return {
    uid: 'custom-amount',
    quantity: '1',
    item_type: 'CUSTOM_AMOUNT',
    base_price_money: usd(amount),
    gross_sales_money: usd(amount),
    total_money: usd(amount),
  };
}

/**
 * An order.updated: Square's documented example (`order-updated-webhook.json`, a stub with the
 * order id, state and version) with its event id, order id, location, state, version and time replaced.
 */
export function orderUpdatedEvent(parts: {
  eventId: string;
  orderId: string;
  locationId: string;
  state: string;
  updatedAt: string;
  version: number;
}): Json {
  const event = copy('order-updated-webhook.json');
  event.event_id = parts.eventId;
  event.created_at = parts.updatedAt;
  event.data.id = parts.orderId;
  Object.assign(event.data.object.order_updated, {
    order_id: parts.orderId,
    location_id: parts.locationId,
    state: parts.state,
    updated_at: parts.updatedAt,
    version: parts.version,
  });
  return event;
}

/**
 * A refund.updated (or refund.created): Square's documented example (`refund-updated-completed.json`,
 * COMPLETED, 1000) with its event id, refund id, payment, amount, status, location and time
 * replaced; `destination` adds the documented PaymentRefund fields `destination_type` and
 * `destination_details` (no Square example shows them with real values). Its `order_id` (the
 * refund's own order) is kept as Square sends it.
 */
export function refundEvent(parts: {
  eventId: string;
  refundId: string;
  paymentId: string;
  amount: number;
  locationId: string;
  updatedAt: string;
  status?: string;
  type?: 'refund.created' | 'refund.updated';
  destination?: { destination_type: string; destination_details?: Json };
}): Json {
  const event = copy('refund-updated-completed.json');
  event.event_id = parts.eventId;
  event.type = parts.type ?? 'refund.updated';
  event.created_at = parts.updatedAt;
  event.data.id = parts.refundId;
  Object.assign(event.data.object.refund, {
    id: parts.refundId,
    payment_id: parts.paymentId,
    location_id: parts.locationId,
    status: parts.status ?? 'COMPLETED',
    amount_money: usd(parts.amount),
    updated_at: parts.updatedAt,
    ...(parts.destination ?? {}),
  });
  return event;
}

/** A refund to a Square gift card (a cross-method refund): SPEC `destination_type` CARD, card brand SQUARE_GIFT_CARD. */
export const GIFT_CARD_DESTINATION = {
  destination_type: 'CARD',
  destination_details: { card_details: { card: { card_brand: 'SQUARE_GIFT_CARD', last_4: '0000' }, entry_method: 'KEYED' } },
};
/** A refund to store credit: SPEC `destination_type` EXTERNAL, external type "STORED_BALANCE - Use for house accounts, store credit". */
export const STORE_CREDIT_DESTINATION = {
  destination_type: 'EXTERNAL',
  destination_details: { external_details: { type: 'STORED_BALANCE', source: 'Store credit' } },
};

export type DisputeFixture =
  'dispute-created-webhook.json' | 'dispute-state-updated-webhook.json' | 'dispute-state-changed-webhook-deprecated.json';

/**
 * A dispute event: one of Square's documented examples (created EVIDENCE_REQUIRED; state.updated
 * WON; the deprecated state.changed WON, whose dispute id is `dispute_id`) moved to `locationId`,
 * with whichever of event id, dispute id, state (a SPEC DisputeState), disputed payment and amount
 * are given replaced.
 */
export function disputeEvent(
  name: DisputeFixture,
  parts: {
    locationId: string;
    eventId?: string;
    disputeId?: string;
    state?: string;
    paymentId?: string;
    amount?: number;
    updatedAt?: string;
  },
): Json {
  const event = copy(name);
  const dispute = event.data.object.dispute;
  event.location_id = parts.locationId;
  dispute.location_id = parts.locationId;
  if (parts.eventId) event.event_id = parts.eventId;
  if (parts.disputeId) {
    event.data.id = parts.disputeId;
    for (const key of ['id', 'dispute_id']) if (key in dispute) dispute[key] = parts.disputeId;
  }
  if (parts.state) dispute.state = parts.state;
  if (parts.paymentId) dispute.disputed_payment.payment_id = parts.paymentId;
  if (parts.amount !== undefined) dispute.amount_money = usd(parts.amount);
  if (parts.updatedAt) {
    dispute.updated_at = parts.updatedAt;
    event.created_at = parts.updatedAt;
  }
  return event;
}

/** One of Square's documented invoice events moved to `locationId` (the invoice and the event name the location). */
export function invoiceEvent(name: string, locationId: string): Json {
  const event = copy(name);
  event.location_id = locationId;
  event.data.object.invoice.location_id = locationId;
  return event;
}
