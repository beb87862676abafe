import { vendorText, type MapResult } from '@loyalty-gateway/core';
import type { CloverUnit } from './auth.js';
import { isCloverId, type CloverContext } from './config.js';
import { fetchOrder, fetchPayment } from './api.js';
import { toEnvelopes } from './map.js';

/** `O:GHIVJT2ABCRSC` → `GHIVJT2ABCRSC`; null for every other object kind (P:, I:, C:, M:, A:...). */
export function orderIdOf(objectId: string): string | null {
  const match = /^O:(.+)$/.exec(objectId);
  return match?.[1] ?? null;
}

/** `P:PAYVJT2ABCRSC` → `PAYVJT2ABCRSC`; null for every other object kind. */
export function paymentIdOf(objectId: string): string | null {
  const match = /^P:(.+)$/.exec(objectId);
  return match?.[1] ?? null;
}

const notAnId = (unit: CloverUnit): MapResult => ({
  envelopes: [],
  note: `${unit.type} of ${vendorText(unit.objectId, 64)} for merchant ${vendorText(unit.merchantId, 64)} ignored: not a Clover id (never fetched)`,
});

/** The order, fetched back and mapped: the notification carries ids only. */
async function mapOrder(unit: CloverUnit, ctx: CloverContext, orderId: string): Promise<MapResult> {
  const order = await fetchOrder(ctx, unit.merchantId, orderId);
  if (order === null) return { envelopes: [], note: `order ${orderId} no longer exists at Clover: nothing to do` };
  return toEnvelopes(order, unit);
}

/**
 * One notification → envelopes. Orders (`O:`) are fetched back and mapped; a DELETE is accepted
 * with a note. Payments (`P:`, "Payment is created or updated") are fetched for the order they
 * name, which is then fetched and mapped exactly as for an `O:` notification: Clover documents no
 * refund, credit or void event, and which of `O:` or `P:` a void or refund fires is not documented,
 * so either one reads the order's whole state. The eventIds stay the notification's own. Other
 * object kinds are accepted with a note (answered 200 so Clover does not retry).
 */
export async function mapCloverUnit(unit: CloverUnit, ctx: CloverContext): Promise<MapResult> {
  const orderId = orderIdOf(unit.objectId);
  const paymentId = paymentIdOf(unit.objectId);
  if (orderId === null && paymentId === null) {
    return { envelopes: [], note: `${unit.type} of ${vendorText(unit.objectId, 64)} ignored: only orders (O:) and payments (P:) are read` };
  }
  if (!isCloverId(orderId ?? paymentId!) || !isCloverId(unit.merchantId)) return notAnId(unit);
  if (orderId !== null) {
    if (unit.type === 'DELETE') return { envelopes: [], note: `order ${orderId} was deleted: nothing to do` };
    return mapOrder(unit, ctx, orderId);
  }
  const payment = await fetchPayment(ctx, unit.merchantId, paymentId!);
  if (payment === null) return { envelopes: [], note: `payment ${paymentId} no longer exists at Clover: nothing to do` };
  const paidOrder = payment.order?.id;
  if (!paidOrder || !isCloverId(paidOrder)) {
    return { envelopes: [], note: `payment ${paymentId} names no Clover order: nothing to do` };
  }
  return mapOrder(unit, ctx, paidOrder);
}
