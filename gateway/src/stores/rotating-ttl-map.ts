/**
 * A bounded map with per-entry expiry and O(1) operations: two generations of plain Maps.
 * Writes go to the young generation; when it holds half the capacity (or, with `rotateEveryMs`,
 * when it is that old) the old generation is dropped whole and the young one becomes old.
 * Expired entries are removed lazily on read. No timers, no per-insert eviction scans.
 *
 * A hit in the old generation is copied into the young one, so entries in use survive rotation;
 * an entry may be dropped before its expiry when the map is full, which a cache can afford.
 */
export interface RotatingTtlMapOptions<V = unknown> {
  /** Upper bound on entries held (both generations together). */
  maxEntries: number;
  /**
   * Also an upper bound on the estimated bytes held (both generations together), each entry
   * weighed by `weigh`; a generation rotates when it holds half of either bound.
   */
  maxBytes?: number;
  /** The estimated bytes of one entry; required with `maxBytes`. */
  weigh?: (key: string, value: V) => number;
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
  private youngBytes = 0;
  private oldBytes = 0;
  private readonly generationSize: number;
  private readonly generationBytes: number;
  private readonly weigh: (key: string, value: V) => number;
  private readonly now: () => number;
  private readonly rotateEveryMs: number;
  private rotatedAt: number;

  constructor(options: RotatingTtlMapOptions<V>) {
    if (!Number.isInteger(options.maxEntries) || options.maxEntries < 2) throw new RangeError('maxEntries must be an integer ≥ 2');
    if (options.maxBytes !== undefined && (!(options.maxBytes > 0) || !options.weigh))
      throw new RangeError('maxBytes must be positive and comes with weigh');
    this.generationSize = Math.floor(options.maxEntries / 2);
    this.generationBytes = options.maxBytes === undefined ? Number.POSITIVE_INFINITY : options.maxBytes / 2;
    this.weigh = options.weigh ?? (() => 0);
    this.now = options.now ?? Date.now;
    this.rotateEveryMs = options.rotateEveryMs ?? Number.POSITIVE_INFINITY;
    this.rotatedAt = this.now();
  }

  get size(): number {
    return this.young.size + this.old.size;
  }

  /** The estimated bytes held (0 without `weigh`). */
  get bytes(): number {
    return this.youngBytes + this.oldBytes;
  }

  get(key: string): V | undefined {
    const now = this.now();
    const young = this.young.get(key);
    if (young !== undefined) {
      if (young.expiresAt > now) return young.value;
      this.delete(key);
      return undefined;
    }
    const old = this.old.get(key);
    if (old === undefined) return undefined;
    this.removeOld(key, old);
    if (old.expiresAt <= now) return undefined;
    this.insert(key, old, now);
    return old.value;
  }

  set(key: string, value: V, ttlMs: number): void {
    const now = this.now();
    const old = this.old.get(key);
    if (old !== undefined) this.removeOld(key, old);
    this.insert(key, { value, expiresAt: now + ttlMs }, now);
  }

  delete(key: string): void {
    const young = this.young.get(key);
    if (young !== undefined) {
      this.young.delete(key);
      this.youngBytes -= this.weigh(key, young.value);
    }
    const old = this.old.get(key);
    if (old !== undefined) this.removeOld(key, old);
  }

  clear(): void {
    this.young.clear();
    this.old.clear();
    this.youngBytes = 0;
    this.oldBytes = 0;
  }

  private removeOld(key: string, slot: Slot<V>): void {
    this.old.delete(key);
    this.oldBytes -= this.weigh(key, slot.value);
  }

  private insert(key: string, slot: Slot<V>, now: number): void {
    const replaced = this.young.get(key);
    if (replaced !== undefined) {
      this.youngBytes -= this.weigh(key, replaced.value);
    } else if (
      this.young.size >= this.generationSize ||
      this.youngBytes >= this.generationBytes ||
      now - this.rotatedAt >= this.rotateEveryMs
    ) {
      this.old = this.young;
      this.oldBytes = this.youngBytes;
      this.young = new Map();
      this.youngBytes = 0;
      this.rotatedAt = now;
    }
    this.young.set(key, slot);
    this.youngBytes += this.weigh(key, slot.value);
  }
}
