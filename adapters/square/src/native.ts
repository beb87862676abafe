import { id } from '@loyalty-gateway/core';
import { z } from 'zod';

/**
 * Loose schemas of what Square sends and answers. Square adds fields over time, so every object
 * is `.loose()` and every field we do not strictly need is `.nullish()`.
 * Reference: https://developer.squareup.com/reference/square/webhooks/payment.updated and the
 * Orders, Customers and Catalog API references.
 */

/** Square money: an integer count of the currency's smallest unit (cents for USD, yen for JPY). */
export const SquareMoney = z
  .object({
    amount: z.number().int().nullish(),
    currency: z.string().nullish(),
  })
  .loose();
export type SquareMoney = z.infer<typeof SquareMoney>;

/** Every webhook body: `{merchant_id, type, event_id, created_at, data: {type, id, object}}`. */
export const SquareEvent = z
  .object({
    merchant_id: z.string().nullish(),
    type: z.string().min(1),
    /** Square's idempotency key: the same for every retry of one event (an envelope's eventId: 255 storable characters at most). */
    event_id: id(255),
    created_at: z.string().nullish(),
    data: z
      .object({
        type: z.string().nullish(),
        id: z.string().nullish(),
        object: z.record(z.string(), z.unknown()).nullish(),
      })
      .loose()
      .nullish(),
  })
  .loose();
export type SquareEvent = z.infer<typeof SquareEvent>;

/**
 * A Square object id that goes into an API path (payment, order, customer, refund ids): Square's
 * ids are letters, digits, `_` and `-`. Anything else (`..`, `/`, `%2e`) is refused before a URL is
 * built, so an authenticated payload can never walk the fetch-back to another path.
 */
export const SquareId = z.string().regex(/^[A-Za-z0-9_-]{1,192}$/, { message: 'is not a Square object id (letters, digits, _ and -)' });

export const SquarePayment = z
  .object({
    id: SquareId,
    status: z.string().nullish(),
    location_id: z.string().nullish(),
    order_id: SquareId.nullish(),
    customer_id: SquareId.nullish(),
    buyer_email_address: z.string().nullish(),
    amount_money: SquareMoney.nullish(),
    total_money: SquareMoney.nullish(),
    created_at: z.string().nullish(),
    updated_at: z.string().nullish(),
  })
  .loose();
export type SquarePayment = z.infer<typeof SquarePayment>;

export const SquareRefund = z
  .object({
    /** The reversal's idempotency key (the envelope's refund.id). */
    id: SquareId,
    status: z.string().nullish(),
    location_id: z.string().nullish(),
    /** The REFUND's own order (Square creates one per refund), not the sale's: see saleOfRefund. */
    order_id: SquareId.nullish(),
    /** The refunded payment, whose `order_id` is the sale. */
    payment_id: SquareId.nullish(),
    amount_money: SquareMoney.nullish(),
    created_at: z.string().nullish(),
    updated_at: z.string().nullish(),
  })
  .loose();
export type SquareRefund = z.infer<typeof SquareRefund>;

export const SquareLineItem = z
  .object({
    uid: z.string().nullish(),
    name: z.string().nullish(),
    /** A decimal STRING: "2", or "1.250" for weighed goods (up to 5 decimals). */
    quantity: z.string(),
    catalog_object_id: z.string().nullish(),
    variation_name: z.string().nullish(),
    item_type: z.string().nullish(),
    base_price_money: SquareMoney.nullish(),
    gross_sales_money: SquareMoney.nullish(),
    variation_total_price_money: SquareMoney.nullish(),
  })
  .loose();
export type SquareLineItem = z.infer<typeof SquareLineItem>;

export const SquareOrderDiscount = z
  .object({
    uid: z.string().nullish(),
    catalog_object_id: z.string().nullish(),
    name: z.string().nullish(),
    /** FIXED_PERCENTAGE, FIXED_AMOUNT, VARIABLE_PERCENTAGE, VARIABLE_AMOUNT. */
    type: z.string().nullish(),
    percentage: z.string().nullish(),
    amount_money: SquareMoney.nullish(),
    applied_money: SquareMoney.nullish(),
    scope: z.string().nullish(),
  })
  .loose();
export type SquareOrderDiscount = z.infer<typeof SquareOrderDiscount>;

/** The `status` of a tender's details object (card, bank account, Buy Now Pay Later, Square account). */
const TenderDetails = z.object({ status: z.string().nullish() }).loose().nullish();

/**
 * One payment applied to an order (`Order.tenders`): "The tender's unique ID. It is the associated
 * payment ID"; `amount_money` equals that payment's `total_money` (tip included).
 */
export const SquareTender = z
  .object({
    id: z.string().nullish(),
    payment_id: z.string().nullish(),
    type: z.string().nullish(),
    amount_money: SquareMoney.nullish(),
    card_details: TenderDetails,
    bank_account_details: TenderDetails,
    buy_now_pay_later_details: TenderDetails,
    square_account_details: TenderDetails,
  })
  .loose();
export type SquareTender = z.infer<typeof SquareTender>;

export const SquareOrder = z
  .object({
    id: z.string().min(1),
    location_id: z.string().nullish(),
    customer_id: SquareId.nullish(),
    /** On a refund's own order: the orders it returns items of (`source_order_id` is the sale). */
    returns: z.array(z.object({ source_order_id: SquareId.nullish() }).loose()).nullish(),
    /** OPEN, COMPLETED ("Completed orders are fully paid"), CANCELED ("not paid"), DRAFT. */
    state: z.string().nullish(),
    source: z.object({ name: z.string().nullish() }).loose().nullish(),
    line_items: z.array(SquareLineItem).nullish(),
    discounts: z.array(SquareOrderDiscount).nullish(),
    total_money: SquareMoney.nullish(),
    /** The payments applied so far: an OPEN order may be paid in full (pickup, payment link) or in part (invoice deposit). */
    tenders: z.array(SquareTender).nullish(),
    /** "The net amount of money due on the order" (Square documents nothing more): a cross-check only. */
    net_amount_due_money: SquareMoney.nullish(),
    created_at: z.string().nullish(),
    updated_at: z.string().nullish(),
    closed_at: z.string().nullish(),
  })
  .loose();
export type SquareOrder = z.infer<typeof SquareOrder>;

/**
 * The stub `order.updated` carries (`data.object.order_updated`): ids, state and version, no money.
 * The order itself is read back when the state is COMPLETED.
 */
export const SquareOrderUpdated = z
  .object({
    order_id: SquareId,
    location_id: z.string().nullish(),
    state: z.string().nullish(),
    version: z.number().nullish(),
    created_at: z.string().nullish(),
    updated_at: z.string().nullish(),
  })
  .loose();
export type SquareOrderUpdated = z.infer<typeof SquareOrderUpdated>;

/**
 * A chargeback (`dispute.created`, `dispute.state.updated`, the deprecated `dispute.state.changed`).
 * The id is `id`, or `dispute_id` in the deprecated event's documented example; it keys the
 * reversal (`dispute:<id>`), so it must be a Square id like every other id the ledger keys on.
 */
export const SquareDispute = z
  .object({
    id: SquareId.nullish(),
    dispute_id: SquareId.nullish(),
    /** INQUIRY_EVIDENCE_REQUIRED, INQUIRY_PROCESSING, INQUIRY_CLOSED, EVIDENCE_REQUIRED, PROCESSING, WON, LOST, ACCEPTED. */
    state: z.string().nullish(),
    /** "The disputed amount, which can be less than the total transaction amount." */
    amount_money: SquareMoney.nullish(),
    disputed_payment: z.object({ payment_id: SquareId.nullish() }).loose().nullish(),
    location_id: z.string().nullish(),
    created_at: z.string().nullish(),
    updated_at: z.string().nullish(),
  })
  .loose();
export type SquareDispute = z.infer<typeof SquareDispute>;

/** `GET /v2/orders/{order_id}` */
export const SquareRetrieveOrderResponse = z.object({ order: SquareOrder.nullish() }).loose();

/** `GET /v2/payments/{payment_id}` */
export const SquareGetPaymentResponse = z.object({ payment: SquarePayment.nullish() }).loose();

export const SquareCustomer = z
  .object({
    id: z.string().nullish(),
    email_address: z.string().nullish(),
    phone_number: z.string().nullish(),
    /** The profile's address: its `country` (ISO 3166-1 alpha-2) is the country the phone is read in. */
    address: z.object({ country: z.string().nullish() }).loose().nullish(),
  })
  .loose();
export type SquareCustomer = z.infer<typeof SquareCustomer>;

/** `GET /v2/customers/{customer_id}` */
export const SquareRetrieveCustomerResponse = z.object({ customer: SquareCustomer.nullish() }).loose();

/** Location presence, shared by items and variations. */
const presence = {
  is_deleted: z.boolean().nullish(),
  present_at_all_locations: z.boolean().nullish(),
  present_at_location_ids: z.array(z.string()).nullish(),
  absent_at_location_ids: z.array(z.string()).nullish(),
};

export const SquareCatalogVariation = z
  .object({
    type: z.string().nullish(),
    id: z.string().min(1),
    ...presence,
    item_variation_data: z
      .object({
        name: z.string().nullish(),
        sku: z.string().nullish(),
        pricing_type: z.string().nullish(),
        price_money: SquareMoney.nullish(),
      })
      .loose()
      .nullish(),
  })
  .loose();
export type SquareCatalogVariation = z.infer<typeof SquareCatalogVariation>;

export const SquareCatalogObject = z
  .object({
    type: z.string(),
    id: z.string().min(1),
    ...presence,
    item_data: z
      .object({
        name: z.string().nullish(),
        is_archived: z.boolean().nullish(),
        variations: z.array(SquareCatalogVariation).nullish(),
      })
      .loose()
      .nullish(),
  })
  .loose();
export type SquareCatalogObject = z.infer<typeof SquareCatalogObject>;

/** `GET /v2/catalog/list?types=ITEM` */
export const SquareCatalogListResponse = z
  .object({
    objects: z.array(SquareCatalogObject).nullish(),
    /** Absent on the last page. */
    cursor: z.string().nullish(),
  })
  .loose();
export type SquareCatalogListResponse = z.infer<typeof SquareCatalogListResponse>;
