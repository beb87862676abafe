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

export const CloverEmailAddress = z.object({ emailAddress: z.string().nullish(), primaryEmail: z.boolean().nullish() }).loose();

export const CloverPhoneNumber = z.object({ phoneNumber: z.string().nullish() }).loose();

export const CloverCustomer = z
  .object({
    id: z.string().nullish(),
    emailAddresses: cloverList(CloverEmailAddress),
    phoneNumbers: cloverList(CloverPhoneNumber),
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

export const CloverPayment = z
  .object({
    id: z.string().nullish(),
    amount: z.number().nullish(),
    result: z.string().nullish(),
    createdTime: z.number().nullish(),
  })
  .loose();

export const CloverRefund = z
  .object({
    id: z.string().nullish(),
    /** Refunded amount in cents, tax included, tip excluded. */
    amount: z.number().nullish(),
    taxAmount: z.number().nullish(),
    createdTime: z.number().nullish(),
    voided: z.boolean().nullish(),
    payment: ref,
  })
  .loose();
export type CloverRefund = z.infer<typeof CloverRefund>;

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
    lineItems: cloverList(CloverLineItem),
    customers: cloverList(CloverCustomer),
    discounts: cloverList(CloverDiscount),
    payments: cloverList(CloverPayment),
    refunds: cloverList(CloverRefund),
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
