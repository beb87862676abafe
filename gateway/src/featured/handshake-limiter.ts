import { clientKey } from '../http/client-key.js';
import { LocalWindowCounter } from '../http/window-counter.js';

export interface HandshakeLimits {
  /** Unsigned setup calls recorded per vendor and client address per window. */
  perAddress: number;
  windowMs: number;
}

/** A vendor's setup call happens a few times in its life; these leave room for retries and nothing more. */
export const HANDSHAKE_LIMITS: Readonly<HandshakeLimits> = Object.freeze({ perAddress: 5, windowMs: 10 * 60_000 });

export interface HandshakeLimiter {
  /**
   * Count one unsigned setup call from `address` (the client: `request.ip`, counted by clientKey, an
   * IPv6 client per /64); null when it may be recorded, else the seconds until the window ends.
   */
  take(vendor: string, address: string): number | null;
}

/** The client as the operator reads it (`request.ip`): an IPv4 client on a dual-stack socket without its `::ffff:` prefix. */
export const senderAddress = (remoteAddress: string): string => remoteAddress.replace(/^::ffff:/, '');

/** Keys (vendor, address) the limiter holds at most: past it, the key whose window began first is forgotten. */
const HANDSHAKE_KEYS_MAX = 20_000;

/**
 * Unsigned handshakes are the one thing anyone can make the gateway write (a vendor note for the
 * operator), so they are counted per process, on the gateway's window counter (at most 20,000
 * keys), in fixed windows per (vendor, address); over the
 * limit the call is refused 429 with Retry-After and nothing is written. There is deliberately no
 * count per vendor: the sender is anonymous, so a vendor-wide count is one a forger could keep
 * spent (two calls a minute from rotating addresses) and the vendor's genuine call would be
 * refused for as long as they kept on. What senders from many addresses can write together is
 * bounded by the note store instead: the same value only refreshes its note, and each vendor
 * keeps its newest 50 notes, each naming its sender's address.
 */
export function createHandshakeLimiter(limits: HandshakeLimits = HANDSHAKE_LIMITS, clock: () => number = Date.now): HandshakeLimiter {
  const counter = new LocalWindowCounter({ clock, maxKeys: HANDSHAKE_KEYS_MAX });
  return {
    take(vendor, address) {
      const key = `${vendor}\u0000${clientKey(address)}`;
      const spent = counter.read(key, limits.windowMs);
      if (spent.count >= limits.perAddress) return Math.max(1, Math.ceil(spent.ttlMs / 1000));
      counter.hit(key, limits.windowMs);
      return null;
    },
  };
}
