import { cursorPage, type ReconcilePage, type ReconcileWindow } from '@loyalty-gateway/core';
import { z } from 'zod';
import { mapSquareUnit } from './map-unit.js';
import { SquareId, SquarePayment, SquareRefund, type SquareEvent } from './native.js';
import { squareHeaders, squareUrl, type SquareContext } from './api.js';

/** Every 15 minutes: a notification Square gave up on (24 h of retries) is still found. */
export const RECONCILE_SCHEDULE = '*/15 * * * *';

const PaymentListing = z
  .object({
    payments: z.array(SquarePayment.extend({ refund_ids: z.array(z.string()).nullish() })).nullish(),
    cursor: z.string().nullish(),
  })
  .loose();
const RefundResponse = z.object({ refund: SquareRefund.nullish() }).loose();

/** The notification Square would have sent about an object: reconciliation maps it with the webhook's own code. */
const asEvent = (
  type: string,
  kind: 'payment' | 'refund',
  object: { id: string; updated_at?: string | null | undefined },
): SquareEvent => ({
  type,
  event_id: `reconcile:${kind}:${object.id}:${object.updated_at ?? ''}`,
  created_at: object.updated_at ?? null,
  data: { type: kind, id: object.id, object: { [kind]: object } },
});

/**
 * Square's reconciliation pull: the location's payments **updated** in the window
 * (`GET /v2/payments?location_id=…&updated_at_begin_time=…&updated_at_end_time=…&sort_field=UPDATED_AT`,
 * cursor paging). Each payment is mapped exactly as its `payment.updated` notification
 * (map-unit.ts: a COMPLETED payment earns for its order); each of its `refund_ids` is read
 * (`GET /v2/refunds/{id}`) and mapped as its `refund.updated` notification. A refund updates its
 * payment (`refunded_money`, `refund_ids`), so one listing finds both. Same transaction and refund
 * ids as the webhook: what it delivered is a duplicate.
 */
export async function pullPayments(ctx: SquareContext, window: ReconcileWindow, cursor: string | null): Promise<ReconcilePage> {
  const url = squareUrl(ctx.settings, '/v2/payments');
  const paging = cursorPage(cursor);
  const listing = PaymentListing.parse(
    await ctx.http.json(url, {
      headers: squareHeaders(ctx),
      query: {
        location_id: ctx.storeId,
        updated_at_begin_time: window.since.toISOString(),
        updated_at_end_time: window.until.toISOString(),
        sort_field: 'UPDATED_AT',
        sort_order: 'ASC',
        limit: 100,
        cursor: paging.cursor,
      },
    }),
  );
  const payments = listing.payments ?? [];
  const envelopes: ReconcilePage['envelopes'] = [];
  const failures: NonNullable<ReconcilePage['failures']> = [];
  for (const payment of payments) {
    envelopes.push(...(await mapSquareUnit(asEvent('payment.updated', 'payment', payment), ctx)).envelopes);
    for (const refundId of payment.refund_ids ?? []) {
      if (!SquareId.safeParse(refundId).success) {
        failures.push({ id: refundId.slice(0, 64), reason: 'not a Square refund id: never fetched' });
        continue;
      }
      const refundUrl = squareUrl(ctx.settings, `/v2/refunds/${encodeURIComponent(refundId)}`);
      const refund = RefundResponse.parse(await ctx.http.json(refundUrl, { headers: squareHeaders(ctx) })).refund;
      if (!refund) {
        failures.push({ id: refundId, reason: 'Square answered without a refund' });
        continue;
      }
      envelopes.push(...(await mapSquareUnit(asEvent('refund.updated', 'refund', refund), ctx)).envelopes);
    }
  }
  return { envelopes, failures, examined: payments.length, cursor: paging.next(listing.cursor) };
}
