import type { MapResult } from '@loyalty-gateway/core';
import { classify, toRefundEnvelopes, toSaleEnvelopes } from './map.js';
import type { SquareEvent, SquarePayment } from './native.js';
import { fetchCustomer, fetchOrder, saleOfRefund, type SquareContext } from './api.js';

/**
 * The adapter's `map`: decide from the payload (pure), fetch back what the webhook does not carry,
 * then map (pure). Only COMPLETED payments and refunds cost API calls: for a sale the order always,
 * the customer profile only when the payment has no `buyer_email_address` and the order or payment
 * names a customer; for a refund the refunded payment (whose order is the sale).
 */
export async function mapSquareUnit(event: SquareEvent, ctx: SquareContext): Promise<MapResult> {
  const action = classify(event);
  const receivedAt = ctx.now().toISOString();
  switch (action.kind) {
    case 'ignore':
      return { envelopes: [], note: action.note };
    case 'refund': {
      const sale = await saleOfRefund(ctx, action.refund);
      if (sale === null)
        return { envelopes: [], note: `Square refund ${action.refund.id} names no payment or returned order: nothing to reverse` };
      return toRefundEnvelopes(event, action.refund, sale, ctx.storeId, receivedAt);
    }
    case 'sale':
      return sale(event, action.payment, ctx, receivedAt);
  }
}

async function sale(event: SquareEvent, payment: SquarePayment, ctx: SquareContext, receivedAt: string): Promise<MapResult> {
  const order = payment.order_id ? await fetchOrder(ctx, payment.order_id) : null;
  const customerId = order?.customer_id ?? payment.customer_id;
  const customer = !payment.buyer_email_address?.trim() && customerId ? await fetchCustomer(ctx, customerId) : null;
  return toSaleEnvelopes({ event, storeId: ctx.storeId, payment, order, customer, receivedAt });
}
