import { VendorApiError } from '@loyalty-gateway/core';
import type { z } from 'zod';
import { bearer, isCloverId, merchantUrl, type CloverContext } from './config.js';
import { needsContactLookup } from './map-customer.js';
import { SALE_STATES } from './map.js';
import { CloverCustomer, CloverOrder, CloverPayment } from './native.js';

/** Clover: "Limit expansions to a maximum of three fields per API call" (docs.clover.com/dev/docs/expanding-fields). */
export const MAX_EXPANSIONS_PER_CALL = 3;

/**
 * The six expansions one fetch-back needs, as calls of at most three each, made in parallel (so
 * the second costs no extra latency against the webhook's budget): what a sale maps, and the
 * order's money (`payments`, `refunds`, and `credits`, its manual refunds; `paymentState` comes
 * with both). `voids` is read when Clover includes it but not asked for: the copies of Clover's
 * reference found (api-evangelist/clover, withone.ai) list it as an expansion of "Get all orders"
 * only, and an expansion Clover refused would fail every fetch-back.
 */
export const ORDER_EXPANSIONS: ReadonlyArray<readonly string[]> = [
  ['lineItems', 'customers', 'discounts'],
  ['payments', 'refunds', 'credits'],
];

/** A 404 means the object is gone (deleted since the notification): nothing to map. */
async function getOrNull(ctx: CloverContext, url: string, expand: string): Promise<unknown> {
  try {
    return await ctx.http.json(url, { headers: bearer(ctx), query: { expand } });
  } catch (error) {
    if (error instanceof VendorApiError && error.status === 404) return null;
    throw error;
  }
}

/**
 * What Clover answered, read by `schema`; an answer it cannot read is a vendor API failure naming
 * the URL and the first field (the door: 503, the notification redelivered, logged for the
 * operator), like Square's, never a mapping error.
 */
function readAnswer<T>(schema: z.ZodType<T>, raw: unknown, url: string, what: string): T {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new VendorApiError(
    200,
    url,
    `Clover answered ${what} the adapter cannot read: ${issue ? `${issue.path.join('.') || '(answer)'} ${issue.message}` : 'invalid'}`,
  );
}

/**
 * Contacts of the order's customer. `expand=customers` may return the customer without its email
 * addresses and phone numbers (nested lists are separate expansions), so they are fetched from
 * `/customers/{id}?expand=emailAddresses,phoneNumbers` when missing.
 */
async function withCustomerContacts(ctx: CloverContext, merchantId: string, order: CloverOrder): Promise<CloverOrder> {
  const customer = order.customers?.elements?.[0];
  if (!needsContactLookup(customer) || !isCloverId(customer.id)) return order;
  const url = merchantUrl(ctx, merchantId, `/customers/${encodeURIComponent(customer.id)}`);
  const raw = await getOrNull(ctx, url, 'emailAddresses,phoneNumbers');
  if (raw === null) return order;
  const full = readAnswer(CloverCustomer, raw, url, 'a customer');
  return { ...order, customers: { ...order.customers, elements: [full] } };
}

/**
 * Fetch one order with everything the mapping needs; null when Clover no longer has it. The order's
 * own fields come from the first call; its money (`payments`, `refunds`, `credits`, and `voids`
 * when Clover lists them) from the second.
 */
export async function fetchOrder(ctx: CloverContext, merchantId: string, orderId: string): Promise<CloverOrder | null> {
  const url = merchantUrl(ctx, merchantId, `/orders/${encodeURIComponent(orderId)}`);
  const [main, money] = await Promise.all(ORDER_EXPANSIONS.map((fields) => getOrNull(ctx, url, fields.join(','))));
  if (main === null || money === null) return null;
  const { payments, refunds, credits, voids } = readAnswer(CloverOrder, money, url, 'an order');
  const order: CloverOrder = { ...readAnswer(CloverOrder, main, url, 'an order'), payments, refunds, credits, voids };
  // A refunded order carries its sale too (map.ts): its customer is needed to earn it when it was missed.
  return SALE_STATES.has(order.paymentState ?? '') ? withCustomerContacts(ctx, merchantId, order) : order;
}

/**
 * One payment (`GET /v3/merchants/{mId}/payments/{id}`), for a `P:` notification: it names its
 * order (`order.id`), which is then fetched and mapped as for an `O:` one. Null when Clover no
 * longer has it.
 */
export async function fetchPayment(ctx: CloverContext, merchantId: string, paymentId: string): Promise<CloverPayment | null> {
  const url = merchantUrl(ctx, merchantId, `/payments/${encodeURIComponent(paymentId)}`);
  try {
    return readAnswer(CloverPayment, await ctx.http.json(url, { headers: bearer(ctx) }), url, 'a payment');
  } catch (error) {
    if (error instanceof VendorApiError && error.status === 404) return null;
    throw error;
  }
}
