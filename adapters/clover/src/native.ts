import { z } from 'zod';

/**
 * Loose schemas of what Clover sends and answers. Vendors add fields, so every object is
 * `.loose()` and every field `.nullish()`; the mapping decides what is usable.
 * Money is integer cents everywhere in Clover's REST API.
 */

/** Clover wraps every expanded collection as `{ "elements": [...] }` (sometimes with an `href`). */
const cloverList = <T extends z.ZodType>(element: T) =>
  z
    .object({ elements: z.array(element).nullish() })
    .loose()
    .nullish();

const ref = z.object({ id: z.string().nullish() }).loose().nullish();

/** Milliseconds since the epoch, as a number or a string of digits (what a relay may turn it into). */
const epochMs = z
  .union([
    z.number(),
    z
      .string()
      .regex(/^\d{1,16}$/, { message: 'must be milliseconds since the epoch' })
      .transform(Number),
  ])
  .pipe(z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER));

/**
 * One update inside a webhook: `{"objectId": "O:<id>", "type": "CREATE|UPDATE|DELETE", "ts": <ms>}`.
 * Checked one by one (cloverUnits): a malformed update is skipped, the rest of the batch counts.
 */
export const CloverUpdate = z.object({ objectId: z.string().min(1), type: z.string().min(1), ts: epochMs }).loose();
export type CloverUpdate = z.infer<typeof CloverUpdate>;

/**
 * The webhook body. Either a notification batch (`appId` + `merchants`: merchant id → updates) or
 * the one-time `{"verificationCode": "..."}` Clover posts when the URL is saved. Each merchant's
 * updates are left unparsed here: one bad object must not refuse every merchant's batch.
 */
export const CloverWebhookBody = z
  .object({
    appId: z.string().nullish(),
    merchants: z.record(z.string(), z.unknown()).nullish(),
    verificationCode: z.string().nullish(),
  })
  .loose();
export type CloverWebhookBody = z.infer<typeof CloverWebhookBody>;

/**
 * Contact fields are read as whatever they hold: core's vendorCustomer decides what is usable, so a
 * contact of another type (or a list that is not one) costs the customer (a walk-in), never the
 * sale (the customer answer would otherwise be unreadable: a 503 on every redelivery).
 */
export const CloverEmailAddress = z.object({ emailAddress: z.unknown().optional(), primaryEmail: z.unknown().optional() }).loose();

export const CloverPhoneNumber = z.object({ phoneNumber: z.unknown().optional() }).loose();

export const CloverCustomer = z
  .object({
    id: z.string().nullish(),
    emailAddresses: cloverList(CloverEmailAddress).catch(null),
    phoneNumbers: cloverList(CloverPhoneNumber).catch(null),
  })
  .loose();
export type CloverCustomer = z.infer<typeof CloverCustomer>;

/** An applied discount: `amount` is in cents (Clover stores it negative), or a `percentage`. */
export const CloverDiscount = z
  .object({
    id: z.string().nullish(),
    name: z.string().nullish(),
    amount: z.number().nullish(),
    percentage: z.number().nullish(),
  })
  .loose();
export type CloverDiscount = z.infer<typeof CloverDiscount>;

export const CloverLineItem = z
  .object({
    id: z.string().nullish(),
    item: ref,
    name: z.string().nullish(),
    alternateName: z.string().nullish(),
    /** Unit price in cents (per unit of measure for PER_UNIT items). */
    price: z.number().nullish(),
    /** Fixed-point quantity, scale 1000 (2500 = 2.5 units); only for PER_UNIT items. */
    unitQty: z.number().nullish(),
    unitName: z.string().nullish(),
    itemCode: z.string().nullish(),
    exchanged: z.boolean().nullish(),
    refunded: z.boolean().nullish(),
    discounts: cloverList(CloverDiscount),
  })
  .loose();
export type CloverLineItem = z.infer<typeof CloverLineItem>;

/**
 * A payment (`expand=payments`, or `GET /v3/merchants/{mId}/payments/{id}`). `amount` is what the
 * order was paid, tax included, tip excluded ("payment.amount | Order subtotal amount in cents",
 * docs.clover.com/docs/payment-response-reference); `result` one of Clover's `Result` values
 * (SUCCESS, FAIL, INITIATED, VOIDED, VOIDING, VOID_FAILED, AUTH, AUTH_COMPLETED, DISCOUNT,
 * OFFLINE_RETRYING, PENDING: clover-android-sdk payments/Result.java).
 */
export const CloverPayment = z
  .object({
    id: z.string().nullish(),
    order: ref,
    amount: z.number().nullish(),
    tipAmount: z.number().nullish(),
    taxAmount: z.number().nullish(),
    result: z.string().nullish(),
    createdTime: z.number().nullish(),
    modifiedTime: z.number().nullish(),
    /** "If voided, the corresponding successful payment, and vice versa" (SDK Payment.getVoidPaymentRef). */
    voidPaymentRef: ref,
    voidReason: z.string().nullish(),
    cardTransaction: z.object({ type: z.string().nullish(), state: z.string().nullish() }).loose().nullish(),
  })
  .loose();
export type CloverPayment = z.infer<typeof CloverPayment>;

export const CloverRefund = z
  .object({
    id: z.string().nullish(),
    /**
     * Refunded amount in cents, tax included; tip excluded per docs.clover.com/docs/refund-response-reference
     * ("Refund subtotal amount"), included per the SDK's Refund.getAmount: unverified, the ledger caps it at the sale.
     */
    amount: z.number().nullish(),
    taxAmount: z.number().nullish(),
    tipAmount: z.number().nullish(),
    createdTime: z.number().nullish(),
    /** "If true, the refund was voided by a subsequent action." */
    voided: z.boolean().nullish(),
    /** FAIL, SUCCESS, PENDING or VOIDED (SDK payments/RefundStatus.java); absent on older refunds. */
    status: z.string().nullish(),
    /** "The time when the refund was deleted on the server" (SDK Refund.getDeletedTime). */
    deletedTime: z.number().nullish(),
    payment: ref,
  })
  .loose();
export type CloverRefund = z.infer<typeof CloverRefund>;

/**
 * A manual refund (`expand=credits`): "For manual refunds, a credits object is associated with the
 * order" (docs.clover.com/docs/working-with-orders); fields from docs.clover.com/docs/credit-response-reference
 * (`amount` tax included, tip apart) and the SDK's Credit (`voided`, `result`).
 */
export const CloverCredit = z
  .object({
    id: z.string().nullish(),
    amount: z.number().nullish(),
    taxAmount: z.number().nullish(),
    tipAmount: z.number().nullish(),
    createdTime: z.number().nullish(),
    voided: z.boolean().nullish(),
    result: z.string().nullish(),
    orderRef: ref,
  })
  .loose();
export type CloverCredit = z.infer<typeof CloverCredit>;

/** `GET /v3/merchants/{mId}/orders/{orderId}?expand=...` */
export const CloverOrder = z
  .object({
    id: z.string(),
    currency: z.string().nullish(),
    /** Order total in cents after discounts, tax included, tip excluded. */
    total: z.number().nullish(),
    /** OPEN, PAID, REFUNDED, CREDITED, PARTIALLY_PAID, PARTIALLY_REFUNDED. */
    paymentState: z.string().nullish(),
    state: z.string().nullish(),
    testMode: z.boolean().nullish(),
    createdTime: z.number().nullish(),
    clientCreatedTime: z.number().nullish(),
    /** When Clover last changed the order: the time of the state a fetch-back reads (refunds.listed). */
    modifiedTime: z.number().nullish(),
    lineItems: cloverList(CloverLineItem),
    customers: cloverList(CloverCustomer),
    discounts: cloverList(CloverDiscount),
    payments: cloverList(CloverPayment),
    refunds: cloverList(CloverRefund),
    credits: cloverList(CloverCredit),
    /** "Voided payments associated with this order" (SDK Order.getVoids); not a documented expansion of one order. */
    voids: cloverList(CloverPayment),
  })
  .loose();
export type CloverOrder = z.infer<typeof CloverOrder>;

export const CloverItem = z
  .object({
    id: z.string(),
    name: z.string().nullish(),
    alternateName: z.string().nullish(),
    sku: z.string().nullish(),
    code: z.string().nullish(),
    price: z.number().nullish(),
    priceType: z.string().nullish(),
    hidden: z.boolean().nullish(),
    available: z.boolean().nullish(),
    categories: cloverList(z.object({ name: z.string().nullish() }).loose()),
  })
  .loose();
export type CloverItem = z.infer<typeof CloverItem>;

/** `GET /v3/merchants/{mId}/items?limit=&offset=` */
export const CloverItemPage = z.object({ elements: z.array(CloverItem).nullish() }).loose();
export type CloverItemPage = z.infer<typeof CloverItemPage>;
