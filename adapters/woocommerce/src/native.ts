import { z } from 'zod';

// Loose schemas: vendors add fields, so unknown keys pass through.
export const WoocommerceMoney = z.string().regex(/^\d+(\.\d{1,2})?$/);

export const WoocommerceLine = z.looseObject({
  product_id: z.string().nullish(),
  name: z.string(),
  sku: z.string().nullish(),
  quantity: z.number(),
  unit_price: WoocommerceMoney,
});

export const WoocommerceOrder = z.looseObject({
  id: z.string(),
  currency: z.string(),
  total: WoocommerceMoney,
  channel: z.string().nullish(),
  customer: z.looseObject({ email: z.string().nullish(), phone: z.string().nullish() }).nullish(),
  lines: z.array(WoocommerceLine).default([]),
  discounts: z.array(z.looseObject({ code: z.string(), amount: WoocommerceMoney.nullish() })).default([]),
});
export type WoocommerceOrder = z.infer<typeof WoocommerceOrder>;

export const WoocommerceEvent = z.looseObject({
  event_id: z.string(),
  event_type: z.string(),
  store_id: z.string(),
  created_at: z.string(),
  order: WoocommerceOrder,
  refund: z.looseObject({ id: z.string(), amount: WoocommerceMoney.nullish() }).nullish(),
});
export type WoocommerceEvent = z.infer<typeof WoocommerceEvent>;

export const WoocommerceProduct = z.looseObject({
  id: z.string(),
  name: z.string(),
  sku: z.string().nullish(),
  category: z.string().nullish(),
  price: WoocommerceMoney.nullish(),
  active: z.boolean(),
});
export const WoocommerceProductPage = z.looseObject({
  products: z.array(WoocommerceProduct),
  next_cursor: z.string().nullish(),
});
