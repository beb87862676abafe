import { RotatingTtlMap } from '../stores/rotating-ttl-map.js';

export interface HandshakeLimits {
  /** Unsigned setup calls recorded per vendor and client address per window. */
  perAddress: number;
  /** Unsigned setup calls recorded per vendor per window, whatever the address. */
  perVendor: number;
  windowMs: number;
}

/** A vendor's setup call happens a few times in its life; these leave room for retries and nothing more. */
export const HANDSHAKE_LIMITS: Readonly<HandshakeLimits> = Object.freeze({ perAddress: 5, perVendor: 20, windowMs: 10 * 60_000 });

export interface HandshakeLimiter {
  /** Count one unsigned setup call; null when it may be recorded, else the seconds until the window ends. */
  take(vendor: string, address: string): number | null;
}

/**
 * Unsigned handshakes are the one thing anyone can make the gateway write (a vendor note for the
 * operator), so they are counted per process in fixed windows, per (vendor, address) and per
 * vendor; over either limit the call is refused 429 with Retry-After and nothing is written. The
 * note store's own cap bounds what several processes could write together.
 */
export function createHandshakeLimiter(limits: HandshakeLimits = HANDSHAKE_LIMITS, now: () => number = Date.now): HandshakeLimiter {
  const windows = new RotatingTtlMap<{ count: number; endsAt: number }>({ maxEntries: 20_000, now, rotateEveryMs: limits.windowMs });
  const current = (key: string, at: number) => windows.get(key) ?? { count: 0, endsAt: at + limits.windowMs };
  return {
    take(vendor, address) {
      const at = now();
      const keys = [[`v\u0000${vendor}`, limits.perVendor], [`a\u0000${vendor}\u0000${address.replace(/^::ffff:/, '')}`, limits.perAddress]] as const;
      const counted = keys.map(([key, limit]) => ({ key, limit, window: current(key, at) }));
      const full = counted.find((c) => c.window.count >= c.limit);
      if (full) return Math.max(1, Math.ceil((full.window.endsAt - at) / 1000));
      for (const { key, window } of counted) windows.set(key, { count: window.count + 1, endsAt: window.endsAt }, window.endsAt - at);
      return null;
    },
  };
}
