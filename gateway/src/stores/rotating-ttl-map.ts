/**
 * A bounded map with per-entry expiry and O(1) operations: two generations of plain Maps.
 * Writes go to the young generation; when it holds half the capacity (or, with `rotateEveryMs`,
 * when it is that old) the old generation is dropped whole and the young one becomes old.
 * Expired entries are removed lazily on read. No timers, no per-insert eviction scans.
 *
 * A hit in the old generation is copied into the young one, so entries in use survive rotation;
 * an entry may be dropped before its expiry when the map is full, which a cache can afford.
 */
export interface RotatingTtlMapOptions {
  /** Upper bound on entries held (both generations together). */
  maxEntries: number;
  /** Milliseconds since the epoch; injectable for tests. */
  now?: () => number;
  /**
   * Also rotate when the young generation is this old. With every TTL ≤ this value, expired
   * entries never outlive two rotations, so memory is reclaimed without a sweep.
   */
  rotateEveryMs?: number;
}

interface Slot<V> {
  value: V;
  expiresAt: number;
}

export class RotatingTtlMap<V> {
  private young = new Map<string, Slot<V>>();
  private old = new Map<string, Slot<V>>();
  private readonly generationSize: number;
  private readonly now: () => number;
  private readonly rotateEveryMs: number;
  private rotatedAt: number;

  constructor(options: RotatingTtlMapOptions) {
    if (!Number.isInteger(options.maxEntries) || options.maxEntries < 2) throw new RangeError('maxEntries must be an integer ≥ 2');
    this.generationSize = Math.floor(options.maxEntries / 2);
    this.now = options.now ?? Date.now;
    this.rotateEveryMs = options.rotateEveryMs ?? Number.POSITIVE_INFINITY;
    this.rotatedAt = this.now();
  }

  get size(): number {
    return this.young.size + this.old.size;
  }

  get(key: string): V | undefined {
    const now = this.now();
    const young = this.young.get(key);
    if (young !== undefined) {
      if (young.expiresAt > now) return young.value;
      this.young.delete(key);
      this.old.delete(key);
      return undefined;
    }
    const old = this.old.get(key);
    if (old === undefined) return undefined;
    this.old.delete(key);
    if (old.expiresAt <= now) return undefined;
    this.insert(key, old, now);
    return old.value;
  }

  set(key: string, value: V, ttlMs: number): void {
    const now = this.now();
    this.old.delete(key);
    this.insert(key, { value, expiresAt: now + ttlMs }, now);
  }

  delete(key: string): void {
    this.young.delete(key);
    this.old.delete(key);
  }

  clear(): void {
    this.young.clear();
    this.old.clear();
  }

  private insert(key: string, slot: Slot<V>, now: number): void {
    if (!this.young.has(key) && (this.young.size >= this.generationSize || now - this.rotatedAt >= this.rotateEveryMs)) {
      this.old = this.young;
      this.young = new Map();
      this.rotatedAt = now;
    }
    this.young.set(key, slot);
  }
}
