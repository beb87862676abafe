import { GatewayError } from '@loyalty-gateway/core';
import type { FastifyInstance } from 'fastify';
import { DeliveriesQuery, IdParams } from '../admin/admin-schemas.js';
import type { AdminDeps } from '../admin/admin-types.js';
import { replayDelivery, showDelivery } from '../admin/delivery-routes.js';
import { readQuery } from '../admin/read-admin-body.js';
import { CONSOLE_ROUTE, fieldOf, PAGE_SIZE, sessionTag, type ConsoleKit } from './console-kit.js';
import { DELIVERY_FILTERS, renderDeliveries, type DeliveryFilterValues } from './deliveries-page.js';
import { renderDelivery } from './delivery-page.js';

function withoutRequest<T extends { request: unknown; matches: unknown; ambiguous: unknown }>(
  found: T,
): Omit<T, 'request' | 'matches' | 'ambiguous'> {
  const { request: _kept, matches: _matches, ambiguous: _ambiguous, ...delivery } = found;
  return delivery;
}

const deliveryId = (params: unknown): string => {
  const parsed = IdParams.safeParse(params);
  if (!parsed.success) throw new GatewayError('delivery_not_found');
  return parsed.data.id;
};

/** The console's front page, the delivery journal's list (filtered, paged), one delivery, and its replay. */
export function registerDeliveriesPages(scope: FastifyInstance, deps: AdminDeps, kit: ConsoleKit): void {
  const { current, takeFlash, redirectWith, send, failureOf } = kit;

  scope.get('/', CONSOLE_ROUTE, async (request, reply) => {
    const session = current(request);
    const query = (request.query ?? {}) as Record<string, unknown>;
    const filters: DeliveryFilterValues = {};
    for (const key of [...DELIVERY_FILTERS.map(([name]) => name), 'nothingEarned' as const]) {
      const value = query[key];
      if (typeof value === 'string' && value.trim() !== '') filters[key] = value.trim();
    }
    const cursor = typeof query.cursor === 'string' && query.cursor !== '' ? query.cursor : undefined;
    const render = (status: number, extra: Partial<Parameters<typeof renderDeliveries>[0]>) =>
      send(
        reply,
        status,
        renderDeliveries({
          session,
          filters,
          deliveries: null,
          nextHref: null,
          journalMounted: deps.journal !== undefined,
          message: takeFlash(session),
          ...extra,
        }),
      );
    if (!deps.journal) return render(200, {});
    try {
      if (filters.requestId) {
        await deps.journal.flush();
        // The journal id, or the request id (X-Request-ID) support was given: every delivery carrying
        // it, each with its vendor and store (anyone may send a vendor's request id again). The
        // kept request is never shown.
        const found = await deps.journal.get(filters.requestId);
        const deliveries =
          found && found.id === filters.requestId
            ? [withoutRequest(found)]
            : (await deps.journal.list({ requestId: filters.requestId, limit: PAGE_SIZE })).deliveries;
        return render(200, { deliveries });
      }
      const { requestId: _unused, ...listed } = filters;
      const filter = readQuery(DeliveriesQuery, { ...listed, ...(cursor ? { cursor } : {}), limit: String(PAGE_SIZE) });
      await deps.journal.flush();
      const page = await deps.journal.list(filter);
      const nextHref = page.nextCursor ? `/console?${new URLSearchParams({ ...listed, cursor: page.nextCursor }).toString()}` : null;
      return render(200, { deliveries: page.deliveries, nextHref, searchedBackTo: page.searchedBackTo });
    } catch (error) {
      const { status, text } = failureOf(error, request);
      return render(status, { message: { kind: 'error', text } });
    }
  });

  scope.get('/deliveries/:id', CONSOLE_ROUTE, async (request, reply) => {
    const session = current(request);
    const shown = await showDelivery(deps, deliveryId(request.params));
    return send(reply, 200, renderDelivery({ session, message: takeFlash(session), ...shown }));
  });

  scope.post('/deliveries/:id/replay', CONSOLE_ROUTE, async (request, reply) => {
    const session = current(request);
    const id = deliveryId(request.params);
    try {
      // "Replay anyway": past a revoked secret or a deactivated connection, journalled as forced.
      const force = fieldOf(request.body, 'force') === '1';
      const { replay, outcome } = await replayDelivery(deps, id, `console:${sessionTag(session)}`, request.log, { force });
      return redirectWith(
        reply,
        session,
        `/console/deliveries/${encodeURIComponent(replay.replayOf)}`,
        `Replayed as ${replay.requestId}: ${outcome ?? 'done'}.`,
      );
    } catch (error) {
      const { status, text } = failureOf(error, request);
      const shown = await showDelivery(deps, id);
      return send(reply, status, renderDelivery({ session, message: { kind: 'error', text: `The replay failed: ${text}` }, ...shown }));
    }
  });
}
