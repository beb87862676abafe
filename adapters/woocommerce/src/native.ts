import { z } from 'zod';

/** WooCommerce money: a decimal string ("29.35"; refund totals are negative, "-10.00"). */
const Decimal = z.string().regex(/^-?\d+(\.\d+)?$/, { message: 'must be a decimal amount' });

/** Every body WooCommerce posts: an order, `{ "id": … }` (order.deleted), or the form-encoded ping `webhook_id=<n>`. */
export const WooBody = z.looseObject({ id: z.number().int().optional(), webhook_id: z.string().optional() });
export type WooBody = z.infer<typeof WooBody>;

/** The REST v3 order (the webhook payload is "exactly the same as if requested via the REST API"). Loose: WooCommerce adds fields. */
export const WooOrder = z.looseObject({
  id: z.number().int().positive(),
  status: z.string(),
  currency: z.string(),
  total: Decimal,
  date_paid_gmt: z.string().nullish(),
  date_modified_gmt: z.string().nullish(),
  // Free text a store may fill with anything: read as given and judged by core's vendorCustomer, so
  // an odd contact (or a billing that is not an object) costs the customer, never the sale.
  billing: z
    .looseObject({ email: z.unknown().optional(), phone: z.unknown().optional(), country: z.unknown().optional() })
    .nullish()
    .catch(null),
  line_items: z
    .array(
      z.looseObject({
        product_id: z.number().int().nullish(),
        name: z.string(),
        quantity: z.number(),
        total: Decimal,
        sku: z.string().nullish(),
      }),
    )
    .default([]),
  coupon_lines: z.array(z.looseObject({ code: z.string(), discount: Decimal.nullish() })).default([]),
  refunds: z.array(z.looseObject({ id: z.number().int().positive(), total: Decimal })).default([]),
});
export type WooOrder = z.infer<typeof WooOrder>;

export const WooProduct = z.looseObject({
  id: z.number().int(),
  name: z.string(),
  sku: z.string().nullish(),
  price: z.string().nullish(),
  status: z.string(),
  purchasable: z.boolean().nullish(),
  categories: z.array(z.looseObject({ name: z.string() })).default([]),
});
export type WooProduct = z.infer<typeof WooProduct>;
