import { z } from 'zod';

/**
 * Loose schemas of what Shopify sends (vendors add fields, so unknown keys pass and almost
 * everything is nullish). Ids arrive as JSON numbers that can exceed 2^53; `parseExactJson`
 * turns big ones into strings first, so an id is accepted as either and kept as a string.
 */
export const ShopifyId = z.union([z.number().int().nonnegative(), z.string().regex(/^\d+$/)]).transform((value) => String(value));

/** Shopify money: a decimal string ("19.99"); a few refund fields are JSON numbers. */
export const ShopifyMoney = z.union([z.string(), z.number()]);

const text = z.string().nullish();

export const ShopifyLineItem = z.looseObject({
  id: ShopifyId.nullish(),
  name: text,
  title: text,
  sku: text,
  quantity: z.union([z.number(), z.string()]).nullish(),
  price: ShopifyMoney.nullish(),
  variant_id: ShopifyId.nullish(),
  product_id: ShopifyId.nullish(),
});
export type ShopifyLineItem = z.infer<typeof ShopifyLineItem>;

export const ShopifyDiscountCode = z.looseObject({
  code: text,
  amount: ShopifyMoney.nullish(),
  type: text,
});
export type ShopifyDiscountCode = z.infer<typeof ShopifyDiscountCode>;

/**
 * Contact fields are read as whatever they hold: core's vendorCustomer decides what is usable, so
 * an email, phone or country of another type costs the customer (a walk-in), never the sale (the
 * order would otherwise be unreadable and earn nothing). A customer or address that is not an
 * object is read as absent, for the same reason.
 */
const contact = z.unknown().optional();

export const ShopifyCustomer = z.looseObject({ email: contact, phone: contact });

/** An order's billing or shipping address: only its ISO 3166-1 alpha-2 country is read (to read a phone number in). */
export const ShopifyAddress = z.looseObject({ country_code: contact });

/** The Order resource: the body of `orders/paid` and `orders/cancelled`. */
export const ShopifyOrder = z.looseObject({
  id: ShopifyId,
  test: z.boolean().nullish(),
  email: contact,
  contact_email: contact,
  phone: contact,
  customer: ShopifyCustomer.nullish().catch(null),
  billing_address: ShopifyAddress.nullish().catch(null),
  shipping_address: ShopifyAddress.nullish().catch(null),
  currency: text,
  total_price: ShopifyMoney.nullish(),
  /** pending, authorized, partially_paid, paid, partially_refunded, refunded, voided (REST Order reference). */
  financial_status: text,
  /** What the customer still owes, in the shop currency ("0.00" when paid in full). */
  total_outstanding: ShopifyMoney.nullish(),
  source_name: text,
  processed_at: text,
  created_at: text,
  cancelled_at: text,
  line_items: z.array(ShopifyLineItem).nullish(),
  discount_codes: z.array(ShopifyDiscountCode).nullish(),
});
export type ShopifyOrder = z.infer<typeof ShopifyOrder>;

const ShopifyMoneyAmount = z.looseObject({ amount: ShopifyMoney.nullish(), currency_code: text });
export const ShopifyMoneySet = z.looseObject({
  shop_money: ShopifyMoneyAmount.nullish(),
  presentment_money: ShopifyMoneyAmount.nullish(),
});

export const ShopifyTransaction = z.looseObject({
  kind: text,
  /** pending, failure, success, error (REST); GraphQL adds awaiting_response and unknown. */
  status: text,
  amount: ShopifyMoney.nullish(),
  currency: text,
  /** Where the money went back: the card's gateway, `gift_card`, `shopify_store_credit`… (all count alike). */
  gateway: text,
  test: z.boolean().nullish(),
});
export type ShopifyTransaction = z.infer<typeof ShopifyTransaction>;

/** The Refund resource: the body of `refunds/create`. */
export const ShopifyRefund = z.looseObject({
  id: ShopifyId,
  order_id: ShopifyId,
  created_at: text,
  processed_at: text,
  transactions: z.array(ShopifyTransaction).nullish(),
  refund_line_items: z
    .array(z.looseObject({ subtotal_set: ShopifyMoneySet.nullish(), total_tax_set: ShopifyMoneySet.nullish() }))
    .nullish(),
  order_adjustments: z.array(z.looseObject({ kind: text, amount_set: ShopifyMoneySet.nullish() })).nullish(),
  /** From API 2024-10: refunded shipping (no longer an order adjustment in refunds/create). */
  refund_shipping_lines: z.array(z.looseObject({ subtotal_amount_set: ShopifyMoneySet.nullish() })).nullish(),
  total_duties_set: ShopifyMoneySet.nullish(),
  total_additional_fees_set: ShopifyMoneySet.nullish(),
});
export type ShopifyRefund = z.infer<typeof ShopifyRefund>;

/** The Transaction resource: the body of `order_transactions/create` (it names its order, not its refund). */
export const ShopifyOrderTransaction = z.looseObject({
  id: ShopifyId,
  order_id: ShopifyId,
  kind: text,
  status: text,
  gateway: text,
  test: z.boolean().nullish(),
});
export type ShopifyOrderTransaction = z.infer<typeof ShopifyOrderTransaction>;

/** The Shopify Payments Dispute resource: the body of `disputes/create` and `disputes/update`. */
export const ShopifyDispute = z.looseObject({
  id: ShopifyId,
  /** Null when the dispute is not tied to an order (a recorded example has it so). */
  order_id: ShopifyId.nullish(),
  /** chargeback or inquiry. */
  type: text,
  /** needs_response, under_review, charge_refunded, accepted, won, lost (and prevented on newer versions). */
  status: text,
  amount: ShopifyMoney.nullish(),
  currency: text,
  initiated_at: text,
  finalized_on: text,
});
export type ShopifyDispute = z.infer<typeof ShopifyDispute>;

/** What the gateway parses before `units()`: any JSON object (every topic's body is one). */
export const ShopifyWebhookBody = z.looseObject({});

/** A GraphQL answer: HTTP 200 may still carry `errors` (THROTTLED, ACCESS_DENIED, ...). */
export const ShopifyGraphqlResponse = z.looseObject({
  data: z.unknown().nullish(),
  errors: z.array(z.looseObject({ message: text, extensions: z.looseObject({ code: text }).nullish() })).nullish(),
  extensions: z
    .looseObject({
      cost: z
        .looseObject({
          requestedQueryCost: z.number().nullish(),
          throttleStatus: z.looseObject({ currentlyAvailable: z.number().nullish(), restoreRate: z.number().nullish() }).nullish(),
        })
        .nullish(),
    })
    .nullish(),
});
export type ShopifyGraphqlResponse = z.infer<typeof ShopifyGraphqlResponse>;

export const ShopifyVariantNode = z.looseObject({
  id: z.string().min(1),
  title: text,
  sku: text,
  price: ShopifyMoney.nullish(),
  product: z.looseObject({ title: text, productType: text, status: text }),
});
export type ShopifyVariantNode = z.infer<typeof ShopifyVariantNode>;

/** `data` of the catalog query (one page of the productVariants connection). */
export const ShopifyVariantsPage = z.looseObject({
  productVariants: z.looseObject({
    nodes: z.array(ShopifyVariantNode),
    pageInfo: z.looseObject({ hasNextPage: z.boolean(), endCursor: text }),
  }),
});
export type ShopifyVariantsPage = z.infer<typeof ShopifyVariantsPage>;
