import { VendorApiError } from '@loyalty-gateway/core';
import { bearer, merchantUrl, type CloverContext } from './config.js';
import { needsContactLookup } from './map-customer.js';
import { CloverCustomer, CloverOrder } from './native.js';

/**
 * The expansions asked for with the order. Clover's docs advise at most three expansions per call;
 * the five below are what one fetch-back needs. If Clover ever refuses them, split the call here.
 */
export const ORDER_EXPAND = 'lineItems,customers,discounts,payments,refunds';

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
 * Contacts of the order's customer. `expand=customers` may return the customer without its email
 * addresses and phone numbers (nested lists are separate expansions), so they are fetched from
 * `/customers/{id}?expand=emailAddresses,phoneNumbers` when missing.
 */
async function withCustomerContacts(ctx: CloverContext, merchantId: string, order: CloverOrder): Promise<CloverOrder> {
  const customer = order.customers?.elements?.[0];
  if (!needsContactLookup(customer)) return order;
  const url = merchantUrl(ctx, merchantId, `/customers/${encodeURIComponent(customer.id)}`);
  const raw = await getOrNull(ctx, url, 'emailAddresses,phoneNumbers');
  if (raw === null) return order;
  const full = CloverCustomer.parse(raw);
  return { ...order, customers: { ...order.customers, elements: [full] } };
}

/** Fetch one order with everything the mapping needs; null when Clover no longer has it. */
export async function fetchOrder(ctx: CloverContext, merchantId: string, orderId: string): Promise<CloverOrder | null> {
  const raw = await getOrNull(ctx, merchantUrl(ctx, merchantId, `/orders/${encodeURIComponent(orderId)}`), ORDER_EXPAND);
  if (raw === null) return null;
  const order = CloverOrder.parse(raw);
  return order.paymentState === 'PAID' ? withCustomerContacts(ctx, merchantId, order) : order;
}
