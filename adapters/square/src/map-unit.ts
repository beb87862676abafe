import type { MapResult } from '@loyalty-gateway/core';
import { classify, toDisputeEnvelopes, toRefundEnvelopes, toSaleEnvelopes } from './map.js';
import { SquareId, type SquareEvent, type SquareOrder, type SquarePayment } from './native.js';
import { paidState, paidTenders } from './paid-in-full.js';
import { fetchCustomer, fetchOrder, fetchPayment, fetchPaymentIfReadable, saleOfRefund, type SquareContext } from './api.js';
import { positiveSquareMoney } from './square-money.js';

/**
 * The adapter's `map`: decide from the payload (pure), fetch back what the webhook does not carry,
 * then map (pure). Only what can move money costs API calls: for a COMPLETED payment the order
 * always, the customer profile only when the order is paid in full, the payment has no
 * `buyer_email_address` and the order or payment names a customer; for an order.updated COMPLETED
 * the order, the payment that completed it and the customer; for a COMPLETED refund or a LOST /
 * ACCEPTED dispute the payment (whose order is the sale).
 */
export async function mapSquareUnit(event: SquareEvent, ctx: SquareContext): Promise<MapResult> {
  const action = classify(event);
  const receivedAt = ctx.now().toISOString();
  switch (action.kind) {
    case 'ignore':
      if (action.warn) ctx.logger.warn({ eventId: event.event_id, type: event.type }, action.note);
      return { envelopes: [], note: action.note };
    case 'refund': {
      const sale = await saleOfRefund(ctx, action.refund);
      if (sale === null)
        return { envelopes: [], note: `Square refund ${action.refund.id} names no payment or returned order: nothing to reverse` };
      return toRefundEnvelopes(event, action.refund, sale, ctx.storeId, receivedAt);
    }
    case 'dispute': {
      // The disputed payment's order is the sale, as for refunds (a payment without an order was keyed by its own id).
      const payment = await fetchPayment(ctx, action.paymentId);
      return toDisputeEnvelopes(event, action.dispute, action.disputeId, payment.order_id ?? payment.id, ctx.storeId, receivedAt);
    }
    case 'sale': {
      const order = action.payment.order_id ? await fetchOrder(ctx, action.payment.order_id) : null;
      return sale(event, action.payment, order, ctx, receivedAt);
    }
    case 'order':
      return orderSale(event, await fetchOrder(ctx, action.order.order_id), ctx, receivedAt);
  }
}

/**
 * An order read back on its own (order.updated COMPLETED) maps as the event of the payment that
 * completed it (its last tender) would: the same sale, the same customer (a receipt email is on
 * the payment only), so whichever of the two events comes first, the other is its duplicate.
 * It earns only when its tenders show money received.
 */
async function orderSale(event: SquareEvent, order: SquareOrder, ctx: SquareContext, receivedAt: string): Promise<MapResult> {
  if (!isPaid(order, null)) return sale(event, null, order, ctx, receivedAt);
  const tenders = paidTenders(order);
  // No payment event accompanies this one: without a tender that brought money (an even exchange,
  // an order Square completed without a payment) nothing was received, so nothing earns.
  if (tenders.length === 0)
    return { envelopes: [], note: `Square order ${order.id} lists no payment received: an order.updated alone earns nothing` };
  const paymentIds = tenders.map((t) => t.payment_id ?? t.id).filter((id) => SquareId.safeParse(id).success);
  const last = paymentIds.at(-1);
  const fetched = last ? await fetchPaymentIfReadable(ctx, last) : null;
  const payment = fetched?.status === 'COMPLETED' && fetched.order_id === order.id ? fetched : null;
  return sale(event, payment, order, ctx, receivedAt);
}

async function sale(
  event: SquareEvent,
  payment: SquarePayment | null,
  order: SquareOrder | null,
  ctx: SquareContext,
  receivedAt: string,
): Promise<MapResult> {
  const input = { event, storeId: ctx.storeId, payment, order, customer: null, receivedAt };
  // An order that does not earn yet is answered with its note before the customer is looked up.
  if (order && !isPaid(order, payment)) return toSaleEnvelopes(input);
  const customerId = order?.customer_id ?? payment?.customer_id;
  const customer = !payment?.buyer_email_address?.trim() && customerId ? await fetchCustomer(ctx, customerId) : null;
  return toSaleEnvelopes({ ...input, customer });
}

function isPaid(order: SquareOrder, payment: SquarePayment | null): boolean {
  const total = order.total_money;
  if (positiveSquareMoney(total) === null || !total?.currency) return false;
  return paidState(order, payment, total.amount ?? 0, total.currency).paid;
}
