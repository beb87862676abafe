import { VendorApiError, trimTrailingSlashes, type AdapterContext } from '@loyalty-gateway/core';
import {
  SquareCatalogListResponse,
  SquareGetPaymentResponse,
  SquareRetrieveCustomerResponse,
  SquareRetrieveOrderResponse,
  type SquareCustomer,
  type SquareOrder,
  type SquarePayment,
  type SquareRefund,
} from './native.js';
import type { SquareCredentials, SquareSettings } from './config.js';

export type SquareContext = AdapterContext<SquareSettings, SquareCredentials>;

/** `{apiBaseUrl}{path}` with the base's trailing slashes dropped. */
export function squareUrl(settings: Pick<SquareSettings, 'apiBaseUrl'>, path: string): string {
  return trimTrailingSlashes(settings.apiBaseUrl) + path;
}

export function squareHeaders(ctx: SquareContext): Record<string, string> {
  return { authorization: `Bearer ${ctx.credentials.accessToken}`, 'square-version': ctx.settings.squareVersion };
}

/** A 2xx answer that does not carry what the endpoint promises. Not retryable. */
function malformed(url: string, what: string): VendorApiError {
  return new VendorApiError(200, url, `Square answered without ${what}`);
}

/** `GET /v2/orders/{order_id}`: line items, discounts, totals, customer id. Errors propagate (Square retries the webhook). */
export async function fetchOrder(ctx: SquareContext, orderId: string): Promise<SquareOrder> {
  const url = squareUrl(ctx.settings, `/v2/orders/${encodeURIComponent(orderId)}`);
  const parsed = SquareRetrieveOrderResponse.safeParse(await ctx.http.json(url, { headers: squareHeaders(ctx) }));
  if (!parsed.success || !parsed.data.order) throw malformed(url, 'an order');
  return parsed.data.order;
}

/** `GET /v2/payments/{payment_id}`: the payment a refund refunds, whose `order_id` is the sale. */
export async function fetchPayment(ctx: SquareContext, paymentId: string): Promise<SquarePayment> {
  const url = squareUrl(ctx.settings, `/v2/payments/${encodeURIComponent(paymentId)}`);
  const parsed = SquareGetPaymentResponse.safeParse(await ctx.http.json(url, { headers: squareHeaders(ctx) }));
  if (!parsed.success || !parsed.data.payment) throw malformed(url, 'a payment');
  return parsed.data.payment;
}

/**
 * The payment `paymentId` when Square can answer it, else null: for an order read back on its own
 * (order.updated), the payment that completed it gives the customer its payment event would (the
 * receipt email). A payment that cannot be read (404, 401/403) leaves the order's own customer;
 * 429/5xx still throw after the client's retries, so Square redelivers later.
 */
export async function fetchPaymentIfReadable(ctx: SquareContext, paymentId: string): Promise<SquarePayment | null> {
  try {
    return await fetchPayment(ctx, paymentId);
  } catch (error) {
    if (error instanceof VendorApiError && !error.retryable) {
      ctx.logger.warn({ status: error.status, paymentId }, 'Square payment not readable; the order is mapped with its own customer');
      return null;
    }
    throw error;
  }
}

/**
 * The sale a refund reverses: the transaction id its sale.completed carried (the sale's order id,
 * or the payment id for a payment without an order). Square creates an order for every refund
 * too, and `refund.order_id` names THAT order, never the sale's; the refunded payment's `order_id`
 * is the sale's (one GetPayment). Without a payment id, the refund's own order names the sale in
 * `returns[].source_order_id`. Null when neither says.
 */
export async function saleOfRefund(ctx: SquareContext, refund: SquareRefund): Promise<string | null> {
  if (refund.payment_id) {
    const payment = await fetchPayment(ctx, refund.payment_id);
    return payment.order_id ?? payment.id;
  }
  if (refund.order_id) {
    const own = await fetchOrder(ctx, refund.order_id);
    return own.returns?.find((r) => r.source_order_id)?.source_order_id ?? null;
  }
  return null;
}

/**
 * `GET /v2/customers/{customer_id}` for email / phone. A customer that cannot be read (deleted
 * profile 404, token without CUSTOMERS_READ 401/403) leaves the sale a walk-in rather than
 * blocking it; 429/5xx still throw after the client's retries, so Square redelivers later.
 */
export async function fetchCustomer(ctx: SquareContext, customerId: string): Promise<SquareCustomer | null> {
  const url = squareUrl(ctx.settings, `/v2/customers/${encodeURIComponent(customerId)}`);
  try {
    const parsed = SquareRetrieveCustomerResponse.safeParse(await ctx.http.json(url, { headers: squareHeaders(ctx) }));
    return parsed.success ? (parsed.data.customer ?? null) : null;
  } catch (error) {
    if (error instanceof VendorApiError && !error.retryable) {
      ctx.logger.warn({ status: error.status, customerId }, 'Square customer not readable; sale kept as a walk-in');
      return null;
    }
    throw error;
  }
}

/** `GET /v2/catalog/list?types=ITEM[&cursor=...]`: one page of items. */
export async function listCatalogPage(ctx: SquareContext, cursor: string | null): Promise<SquareCatalogListResponse> {
  const url = squareUrl(ctx.settings, '/v2/catalog/list');
  const body = await ctx.http.json(url, { headers: squareHeaders(ctx), query: { types: 'ITEM', cursor: cursor ?? undefined } });
  const parsed = SquareCatalogListResponse.safeParse(body);
  if (!parsed.success) throw malformed(url, 'a catalog page');
  return parsed.data;
}
