import type { MapResult } from '@loyalty-gateway/core';
import type { CloverUnit } from './auth.js';
import { isCloverId, type CloverContext } from './config.js';
import { fetchOrder } from './api.js';
import { toEnvelopes } from './map.js';

/** `O:GHIVJT2ABCRSC` → `GHIVJT2ABCRSC`; null for every other object kind (P:, I:, C:, M:, A:...). */
export function orderIdOf(objectId: string): string | null {
  const match = /^O:(.+)$/.exec(objectId);
  return match?.[1] ?? null;
}

/**
 * One notification → envelopes. Only orders matter; DELETE and other object kinds are accepted
 * with a note (answered 200 so Clover does not retry). Orders are fetched back: the webhook
 * carries ids only, and the order's `paymentState` decides sale, refund or nothing.
 */
export async function mapCloverUnit(unit: CloverUnit, ctx: CloverContext): Promise<MapResult> {
  const orderId = orderIdOf(unit.objectId);
  if (orderId === null) return { envelopes: [], note: `${unit.type} of ${unit.objectId} ignored: only orders (O:) earn` };
  if (!isCloverId(orderId) || !isCloverId(unit.merchantId)) {
    return {
      envelopes: [],
      note: `${unit.type} of ${unit.objectId} for merchant ${unit.merchantId} ignored: not a Clover id (never fetched)`,
    };
  }
  if (unit.type === 'DELETE') return { envelopes: [], note: `order ${orderId} was deleted: nothing to do` };
  const order = await fetchOrder(ctx, unit.merchantId, orderId);
  if (order === null) return { envelopes: [], note: `order ${orderId} no longer exists at Clover: nothing to do` };
  return toEnvelopes(order, unit);
}
