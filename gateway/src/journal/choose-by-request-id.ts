import type { Delivery } from './journal-types.js';

/**
 * Whether an entry proved its connection: recorded since migration 0013; before it, judged from
 * what it kept (a connection, and not refused 401 or 403).
 */
export const provedConnection = (d: Pick<Delivery, 'authenticated' | 'connectionId' | 'status'>): boolean =>
  d.authenticated ?? (d.connectionId !== null && d.connectionId !== undefined && d.status !== 401 && d.status !== 403);

/** One entry among those a request id names: enough to tell them apart and open one by its journal id. */
export interface RequestIdMatch {
  id: string;
  receivedAt: string;
  connectionId: string | null;
  vendor: string | null;
  storeId: string | null;
  status: number;
  outcome: string | null;
  authenticated: boolean;
}

export const matchOf = (d: Delivery): RequestIdMatch => ({
  id: d.id,
  receivedAt: d.receivedAt,
  connectionId: d.connectionId ?? null,
  vendor: d.vendor ?? null,
  storeId: d.storeId ?? null,
  status: d.status,
  outcome: d.outcome ?? null,
  authenticated: provedConnection(d),
});

/**
 * A caller's X-Request-ID is the caller's to choose: anyone may send a vendor's id again. Of the
 * entries carrying it (newest first), the one shown is the newest that proved its connection, and
 * only when none did the newest of all: an unauthenticated request never stands in for an
 * authenticated one. `ambiguous`: the entries it could be belong to more than one connection (two
 * vendors use the same ids), so an action on "the" delivery must name it by its journal id.
 */
export function chooseByRequestId<T extends Delivery>(matches: readonly T[]): { chosen: T | null; ambiguous: boolean } {
  const proved = matches.filter(provedConnection);
  const candidates = proved.length > 0 ? proved : matches;
  const connections = new Set(candidates.map((d) => d.connectionId ?? null));
  return { chosen: candidates[0] ?? null, ambiguous: connections.size > 1 };
}
