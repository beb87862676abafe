/** The window of `lastHour`, in slots of five minutes (the oldest slot still partly inside it counts whole). */
const SLOT_MS = 5 * 60 * 1000;
const SLOTS = 12;
/** Per slot: its number (time / SLOT_MS), then requests, refused (4xx), failed (5xx). */
const WIDTH = 4;

export interface ConnectionActivityView {
  /** When this process last answered a request of the connection (authenticated or refused). */
  lastSeenAt: Date;
  /** That answer's HTTP status. */
  lastStatus: number;
  /** The last hour's requests (in five-minute slots): all, refused by the gateway (4xx), failed on its side (5xx). */
  lastHour: { requests: number; refused: number; failed: number };
}

interface Activity {
  /** The connection's vendor and store, for the gauge's labels (from its first request here). */
  vendor: string | undefined;
  store: string | undefined;
  lastSeenAt: number;
  lastStatus: number;
  slots: Float64Array;
}

/**
 * Each connection's requests as this process answered them: when it last sent, and how many of
 * the last hour's requests were refused (4xx: a wrong secret, a stale clock, a bad body) or failed
 * on the gateway's side (5xx). A request counts for its connection once the connection was found
 * from its headers, whatever happened next. In memory, one small entry per connection this process
 * has seen (a fixed 12 slots each), so recording costs a map lookup and three additions.
 */
export class ConnectionActivity {
  private readonly entries = new Map<string, Activity>();

  constructor(private readonly now: () => number = Date.now) {}

  record(connectionId: string, status: number, connection?: { vendor: string; storeId: string }): void {
    const at = this.now();
    let entry = this.entries.get(connectionId);
    if (!entry) {
      const slots = new Float64Array(SLOTS * WIDTH);
      entry = { vendor: connection?.vendor, store: connection?.storeId, lastSeenAt: at, lastStatus: status, slots };
      for (let i = 0; i < SLOTS; i += 1) entry.slots[i * WIDTH] = -1;
      this.entries.set(connectionId, entry);
    }
    entry.lastSeenAt = at;
    entry.lastStatus = status;
    const slot = Math.floor(at / SLOT_MS);
    const base = (slot % SLOTS) * WIDTH;
    const { slots } = entry;
    if (slots[base] !== slot) {
      slots[base] = slot;
      slots[base + 1] = 0;
      slots[base + 2] = 0;
      slots[base + 3] = 0;
    }
    slots[base + 1]! += 1;
    if (status >= 500) slots[base + 3]! += 1;
    else if (status >= 400) slots[base + 2]! += 1;
  }

  /** The connection's activity as this process saw it, or null when it has sent nothing here since the process started. */
  of(connectionId: string): ConnectionActivityView | null {
    const entry = this.entries.get(connectionId);
    if (!entry) return null;
    const current = Math.floor(this.now() / SLOT_MS);
    const lastHour = { requests: 0, refused: 0, failed: 0 };
    for (let base = 0; base < SLOTS * WIDTH; base += WIDTH) {
      const slot = entry.slots[base]!;
      if (slot < 0 || current - slot >= SLOTS) continue;
      lastHour.requests += entry.slots[base + 1]!;
      lastHour.refused += entry.slots[base + 2]!;
      lastHour.failed += entry.slots[base + 3]!;
    }
    return { lastSeenAt: new Date(entry.lastSeenAt), lastStatus: entry.lastStatus, lastHour };
  }

  /**
   * The connections that sent within the last hour, with their vendor, store and last hour's
   * counts (gateway_connection_requests_last_hour); older ones are forgotten here.
   */
  recent(): Array<{ vendor: string; store: string; lastHour: ConnectionActivityView['lastHour'] }> {
    const cutoff = this.now() - SLOTS * SLOT_MS;
    const out: Array<{ vendor: string; store: string; lastHour: ConnectionActivityView['lastHour'] }> = [];
    for (const [id, entry] of this.entries) {
      if (entry.lastSeenAt < cutoff) this.entries.delete(id);
      else if (entry.vendor !== undefined && entry.store !== undefined)
        out.push({ vendor: entry.vendor, store: entry.store, lastHour: this.of(id)!.lastHour });
    }
    return out;
  }
}
