import type { Connection } from '@loyalty-gateway/core';
import { withoutExpired, type LoadedConnection } from './connection-lookup.js';
import { RotatingTtlMap } from './rotating-ttl-map.js';

export interface ConnectionCacheOptions {
  /** How long a found connection is served from memory; 0 disables caching. */
  ttlMs: number;
  /** How long "no such connection" is remembered (bounded by ttlMs). */
  missTtlMs: number;
  maxEntries: number;
  now: () => number;
  load: (vendor: string, storeId: string) => Promise<LoadedConnection | null>;
}

/** Unambiguous for any store id: the vendor's length prefixes it. */
const keyOf = (vendor: string, storeId: string) => `${vendor.length}:${vendor}${storeId}`;

/**
 * The in-process cache in front of the connection lookup. Steady state: one Map hit, no SQL, no
 * decryption. Concurrent misses of one key share one load. A write through this process bumps the
 * epoch and drops the key, so a load that started before the write is never cached after it.
 * Other processes see a write within `ttlMs`.
 */
export class ConnectionCache {
  private readonly entries: RotatingTtlMap<LoadedConnection | null>;
  private readonly inflight = new Map<string, Promise<LoadedConnection | null>>();
  private epoch = 0;

  constructor(private readonly options: ConnectionCacheOptions) {
    this.entries = new RotatingTtlMap({
      maxEntries: options.maxEntries,
      now: options.now,
      rotateEveryMs: Math.max(options.ttlMs, 1),
    });
  }

  async find(vendor: string, storeId: string): Promise<Connection | null> {
    if (this.options.ttlMs <= 0) return this.current(await this.options.load(vendor, storeId));
    const key = keyOf(vendor, storeId);
    const cached = this.entries.get(key);
    if (cached !== undefined) return this.current(cached);
    let pending = this.inflight.get(key);
    if (!pending) {
      pending = this.loadAndCache(key, vendor, storeId);
      this.inflight.set(key, pending);
    }
    return this.current(await pending);
  }

  invalidate(vendor: string, storeId: string): void {
    this.epoch += 1;
    const key = keyOf(vendor, storeId);
    this.entries.delete(key);
    this.inflight.delete(key);
  }

  clear(): void {
    this.epoch += 1;
    this.entries.clear();
    this.inflight.clear();
  }

  private loadAndCache(key: string, vendor: string, storeId: string): Promise<LoadedConnection | null> {
    const epoch = this.epoch;
    const pending: Promise<LoadedConnection | null> = this.options
      .load(vendor, storeId)
      .then((loaded) => {
        // Not cached if any write happened meanwhile: the row read may predate it.
        if (epoch === this.epoch) {
          this.entries.set(key, loaded, loaded ? this.options.ttlMs : Math.min(this.options.missTtlMs, this.options.ttlMs));
        }
        return loaded;
      })
      .finally(() => {
        if (this.inflight.get(key) === pending) this.inflight.delete(key);
      });
    return pending;
  }

  /**
   * The connection with only the secrets accepted right now. Past the earliest deadline a filtered
   * copy is returned without touching the entry, so its TTL (cross-process freshness) is unchanged.
   */
  private current(loaded: LoadedConnection | null): Connection | null {
    if (!loaded) return null;
    const now = this.options.now();
    return now < loaded.validUntil ? loaded.connection : withoutExpired(loaded, now).connection;
  }
}
