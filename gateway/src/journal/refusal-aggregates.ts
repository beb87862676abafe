/** One client address's refusals without a connection in one minute: its row, counted on. */
interface Aggregate {
  /** The journal id of the row the first refusal was written as. */
  id: string;
  minute: number;
  count: number;
  lastRequestId: string | null;
  /** Counted since the row was last written. */
  dirty: boolean;
}

/** A row's count and last request id to write (`refusals`, `last_request_id` of the row `id`). */
export interface AggregateUpdate {
  id: string;
  count: number;
  lastRequestId: string | null;
}

/** Addresses counted per minute at most; past them the minute's further addresses share one row (`*`). */
export const MAX_AGGREGATED_ADDRESSES = 10_000;

/**
 * Refusals with no resolved connection (a random vendor and store, no credentials, 429s past the
 * refusal limit) are anyone's to send, so they are journalled as one row per client address and
 * minute instead of one per request: the minute's first refusal is written as usual, later ones
 * only count on it (its `refusals`, and its `last_request_id`), written with the next batch. At
 * most MAX_AGGREGATED_ADDRESSES addresses a minute get rows of their own (an attacker with many
 * addresses): past them the minute's refusals share a row whose address is `*`. Kept per process
 * (each process writes its own rows); a minute's counts are forgotten once written and a later
 * minute has begun.
 */
export function createRefusalAggregates() {
  const aggregates = new Map<string, Aggregate>();
  let minuteNow = 0;
  let addressesThisMinute = 0;
  return {
    /**
     * Counts a refusal of `address` at `atMs`. The minute's first refusal of that address: the
     * address to write (`*` past the bound) and the id its row gets; otherwise null, and nothing is
     * to be written now.
     */
    count(address: string, atMs: number, requestId: string, newId: () => string): { address: string; id: string } | null {
      const minute = Math.floor(atMs / 60_000);
      if (minute > minuteNow) {
        minuteNow = minute;
        addressesThisMinute = 0;
      }
      let key = `${minute}|${address}`;
      if (!aggregates.has(key) && addressesThisMinute >= MAX_AGGREGATED_ADDRESSES) {
        address = '*';
        key = `${minute}|*`;
      }
      const found = aggregates.get(key);
      if (found) {
        found.count += 1;
        found.lastRequestId = requestId;
        found.dirty = true;
        return null;
      }
      if (address !== '*') addressesThisMinute += 1;
      const id = newId();
      aggregates.set(key, { id, minute, count: 1, lastRequestId: null, dirty: false });
      return { address, id };
    },
    /** The counts to write now (each once); minutes before the latest one seen are then forgotten. */
    take(): AggregateUpdate[] {
      const updates: AggregateUpdate[] = [];
      for (const [key, aggregate] of aggregates) {
        if (aggregate.dirty) {
          updates.push({ id: aggregate.id, count: aggregate.count, lastRequestId: aggregate.lastRequestId });
          aggregate.dirty = false;
        }
        if (aggregate.minute < minuteNow) aggregates.delete(key);
      }
      return updates;
    },
  };
}
