import type { FastifyBaseLogger } from 'fastify';
import type { GatewayStore } from '../stores/index.js';
import { DEFAULT_CACHE_TTL_MS } from '../stores/sql-gateway-store.js';

/** The store's vendor cache lifetime: a `getVendor` may be this stale in another process. */
export const VENDOR_CACHE_TTL_MS = DEFAULT_CACHE_TTL_MS;

export interface VendorChangesOptions {
  store: Pick<GatewayStore, 'listVendors'>;
  log: Pick<FastifyBaseLogger, 'error'>;
  /** How often the vendor registry is polled for writes made by other processes (default 5 s). */
  intervalMs?: number;
  /**
   * After a change seen by polling, the listeners run once more this much later, so that what they
   * read through the store's vendor cache (up to 5 s stale in this process) is the new state.
   */
  settleMs?: number;
}

export type VendorChangeListener = () => Promise<void> | void;

export interface VendorChanges {
  /**
   * Start polling; resolves once the registry's state is taken as the baseline. Anything a
   * listener reads after this resolves is either that state or followed by a run.
   */
  start(): Promise<void>;
  /** Call `listener` whenever a vendor's tier or settings change; returns the unsubscribe. */
  subscribe(listener: VendorChangeListener): () => void;
  /** A vendor was written by this process (admin API): run the listeners now; resolves when they ran (never rejects). */
  changed(): Promise<void>;
  /** Resolves once no listener run is in progress or queued (tests). */
  idle(): Promise<void>;
  stop(): void;
}

/** What listing the vendors shows of a change: tier, settings present, and the row's write time. */
const signatureOf = (vendors: Awaited<ReturnType<GatewayStore['listVendors']>>): string =>
  JSON.stringify(vendors.map((v) => [v.slug, v.tier, v.hasSettings, v.updatedAt.getTime()]));

/**
 * Tells the parts of a process that derive something from provider settings (the HTTPS listener's
 * acceptable client CAs, the catalog schedules) that a vendor changed, without a restart: at once
 * for a write made here (`changed()`), within `intervalMs` + `settleMs` for one made by another
 * process (the registry is polled; no settings are decrypted for that). Listener runs never
 * overlap: a change arriving during one runs them again after it. Polling begins with `start()`,
 * which a process calls only when something follows the settings (the scheduler, the HTTPS
 * listener), before those read their starting state.
 */
export function watchVendorChanges(options: VendorChangesOptions): VendorChanges {
  const intervalMs = options.intervalMs ?? 5_000;
  const settleMs = options.settleMs ?? VENDOR_CACHE_TTL_MS + 100;
  const listeners = new Set<VendorChangeListener>();
  const timers = new Set<NodeJS.Timeout>();
  let signature: string | undefined;
  let running: Promise<void> = Promise.resolve();
  let pending = 0;
  let poller: NodeJS.Timeout | undefined;
  let started = false;
  let stopped = false;

  function notify(): Promise<void> {
    if (stopped) return Promise.resolve();
    pending += 1;
    running = running.then(async () => {
      pending -= 1;
      for (const listener of [...listeners]) {
        try {
          await listener();
        } catch (error) {
          options.log.error({ err: error }, 'applying a vendor settings change failed; retried on the next change');
        }
      }
    });
    return running;
  }

  function later(ms: number, run: () => void): void {
    const timer = setTimeout(() => {
      timers.delete(timer);
      run();
    }, ms);
    timer.unref();
    timers.add(timer);
  }

  async function poll(): Promise<void> {
    try {
      const next = signatureOf(await options.store.listVendors());
      const first = signature === undefined;
      if (next === signature) return;
      signature = next;
      if (first) return; // the listeners read the state they started from themselves
      void notify();
      later(settleMs, () => void notify());
    } catch (error) {
      options.log.error({ err: error }, 'polling the vendor registry for settings changes failed');
    }
  }

  /** The next poll is armed only when this one has finished: a slow registry never stacks polls. */
  function arm(): void {
    if (stopped) return;
    poller = setTimeout(() => void poll().finally(arm), intervalMs);
    poller.unref();
  }

  return {
    async start() {
      if (started || stopped) return;
      started = true;
      await poll();
      arm();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    changed: notify,
    async idle() {
      while (pending > 0) await running;
      await running;
    },
    stop() {
      stopped = true;
      if (poller) clearTimeout(poller);
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      listeners.clear();
    },
  };
}
