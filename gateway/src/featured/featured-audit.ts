import type { RequestAudit } from '../http/fastify-types.js';
import type { FeaturedResult } from './featured-types.js';

const clip = (value: string) => (value.length > 255 ? value.slice(0, 255) : value);

/**
 * The request log's business fields for a featured call: the event itself when there is one,
 * otherwise a count per status (`processed×2 duplicate×1 refused×1`) so a batch is still one
 * readable line, naming the order when every event is of one order, and the events' warnings
 * for the journal. `refused`: events the ledger refused (in the answer's skipped).
 */
export function featuredAudit(results: FeaturedResult[], skipped: number, refused = 0): RequestAudit {
  const [only] = results;
  if (results.length === 1 && only && skipped === 0 && refused === 0) {
    return {
      eventType: only.eventType,
      eventId: clip(only.eventId),
      transactionId: clip(only.transactionId),
      refundId: only.refundId,
      outcome: only.status,
      warning: only.warning,
    };
  }
  const counts = new Map<string, number>();
  for (const r of results) counts.set(r.status, (counts.get(r.status) ?? 0) + 1);
  if (skipped > 0) counts.set('skipped', skipped);
  if (refused > 0) counts.set('refused', refused);
  const outcome = [...counts].map(([status, n]) => `${status}×${n}`).join(' ');
  // One order's sale and its refunds (a WooCommerce order, a fetched Clover order): still that order's line, findable by its id.
  const orders = new Set(results.map((r) => r.transactionId));
  const [order] = orders;
  // The journal's warning of a batch: its first event's, and how many more there are (each is in the vendor's answer).
  const warnings = results.flatMap((r) => (r.warning ? [r.warning] : []));
  const warning = warnings.length > 1 ? `${warnings[0]} (and ${warnings.length - 1} more warnings in this delivery)` : warnings[0];
  return {
    outcome: outcome === '' ? 'accepted' : outcome,
    outcomes: [...counts],
    ...(warning === undefined ? {} : { warning }),
    ...(orders.size === 1 && order !== undefined ? { transactionId: clip(order) } : {}),
  };
}
