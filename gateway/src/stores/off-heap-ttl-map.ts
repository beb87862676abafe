/**
 * A bounded string → string map with per-entry expiry whose entries live outside V8's heap: each
 * generation is one byte log (a Buffer: key and value as UTF-8 behind a small header) and an
 * open-addressing index into it (a Uint32Array). Both are ArrayBuffer backing stores the garbage
 * collector never scans, copies or promotes.
 *
 * Why: the in-process idempotency cache keeps every sale for a day, so as JS strings in a Map each
 * entry outlived the young generation, was promoted, and later died in the old one, where only full
 * mark-compacts reclaim it. Under load that was a steady stream of promotions and mark-compacts on
 * the event loop (docs/benchmarks.md, "The in-process idempotency cache").
 *
 * Same shape as RotatingTtlMap: two generations; writes go to the young one; when its log is full,
 * its index holds half its slots, or (with `rotateEveryMs`) it is that old, the old generation is
 * emptied and the two swap. A hit in the old generation is copied into the young one, so entries in
 * use survive rotation. An entry may be dropped before its expiry, which a cache can afford; a key
 * whose newest value could not be stored (larger than a generation) is forgotten, never answered
 * with an older value.
 */
export interface OffHeapTtlMapOptions {
  /** Bound on the bytes held, both generations, logs and indexes together. */
  maxBytes: number;
  /** Also rotate when the young generation is this old (milliseconds). */
  rotateEveryMs?: number;
  /** Milliseconds since the epoch; injectable for tests. */
  now?: () => number;
}

/** An entry's header: the key's hash (u32), the key's and the value's byte lengths (u32 each), its expiry (f64, ms). */
const HEADER = 20;
const KEY_LENGTH = 4;
const VALUE_LENGTH = 8;
const EXPIRES_AT = 12;
/**
 * One index slot (4 bytes) per 64 bytes of a generation: at half the slots in use the log is full
 * first for entries of ~120 bytes and more (the gateway's are 100–200), so the index is ~6 % of the bound.
 */
const BYTES_PER_SLOT = 64;
const MIN_SLOTS = 8;

const nextPowerOfTwo = (n: number): number => 2 ** Math.ceil(Math.log2(Math.max(n, 1)));

/** FNV-1a over the bytes, then murmur3's finalizer (FNV alone clusters keys that share a long prefix). */
export function hashBytes(bytes: Buffer, length: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < length; i += 1) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

class Generation {
  readonly log: Buffer;
  /** An entry's offset in the log + 1; 0 is an empty slot. Linear probing. */
  readonly slots: Uint32Array;
  readonly mask: number;
  used = 0;
  count = 0;
  bornAt: number;

  constructor(logBytes: number, slotCount: number, now: number) {
    // allocUnsafeSlow: a backing store of its own (not the shared pool), its pages touched only as
    // entries are written; new Uint32Array is zeroed by the allocator, untouched pages stay unbacked.
    this.log = Buffer.allocUnsafeSlow(logBytes);
    this.slots = new Uint32Array(slotCount);
    this.mask = slotCount - 1;
    this.bornAt = now;
  }

  reset(now: number): void {
    if (this.count > 0) this.slots.fill(0);
    this.used = 0;
    this.count = 0;
    this.bornAt = now;
  }

  /** The slot holding `key` (its bytes in `scratch[0, length)`), or the empty slot where it would go: `~slot`. */
  find(scratch: Buffer, length: number, hash: number): number {
    const { log, slots, mask } = this;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const at = slots[slot]!;
      if (at === 0) return ~slot;
      const entry = at - 1;
      if (
        log.readUInt32LE(entry) === hash &&
        log.readUInt32LE(entry + KEY_LENGTH) === length &&
        log.compare(scratch, 0, length, entry + HEADER, entry + HEADER + length) === 0
      )
        return slot;
    }
  }
}

export class OffHeapTtlMap {
  private young: Generation;
  private old: Generation;
  private readonly logBytes: number;
  private readonly maxCount: number;
  private readonly now: () => number;
  private readonly rotateEveryMs: number;
  /** The key being looked up or stored, as UTF-8 (grown when a longer key comes). */
  private scratch = Buffer.allocUnsafeSlow(256);

  constructor(options: OffHeapTtlMapOptions) {
    if (!(options.maxBytes >= 2 * (HEADER + MIN_SLOTS * BYTES_PER_SLOT)))
      throw new RangeError(`maxBytes must be at least ${2 * (HEADER + MIN_SLOTS * BYTES_PER_SLOT)}`);
    const generationBytes = Math.floor(options.maxBytes / 2);
    // The largest power of two of slots whose index leaves the log at least 15/16 of the generation.
    let slotCount = nextPowerOfTwo(Math.ceil(generationBytes / BYTES_PER_SLOT));
    if (slotCount * 4 > generationBytes / 16) slotCount /= 2;
    slotCount = Math.max(MIN_SLOTS, slotCount);
    this.logBytes = generationBytes - slotCount * 4;
    this.maxCount = slotCount / 2;
    this.now = options.now ?? Date.now;
    this.rotateEveryMs = options.rotateEveryMs ?? Number.POSITIVE_INFINITY;
    const now = this.now();
    this.young = new Generation(this.logBytes, slotCount, now);
    this.old = new Generation(this.logBytes, slotCount, now);
  }

  /** Keys indexed, both generations: an expired entry, or one also copied into the young generation, counts until its generation is emptied. */
  get size(): number {
    return this.young.count + this.old.count;
  }

  /** Bytes of the logs in use. */
  get bytes(): number {
    return this.young.used + this.old.used;
  }

  get(key: string): string | undefined {
    const length = this.encode(key);
    const hash = hashBytes(this.scratch, length);
    const now = this.now();
    const young = this.young.find(this.scratch, length, hash);
    if (young >= 0) {
      const entry = this.young.slots[young]! - 1;
      // An expired young entry is the key's newest: the old generation's is older still.
      return this.young.log.readDoubleLE(entry + EXPIRES_AT) > now ? this.valueOf(this.young.log, entry, length) : undefined;
    }
    const oldSlot = this.old.find(this.scratch, length, hash);
    if (oldSlot < 0) return undefined;
    const entry = this.old.slots[oldSlot]! - 1;
    const expiresAt = this.old.log.readDoubleLE(entry + EXPIRES_AT);
    if (expiresAt <= now) return undefined;
    const value = this.valueOf(this.old.log, entry, length);
    this.store(length, hash, value, expiresAt, now);
    return value;
  }

  set(key: string, value: string, ttlMs: number): void {
    const length = this.encode(key);
    const now = this.now();
    this.store(length, hashBytes(this.scratch, length), value, now + ttlMs, now);
  }

  clear(): void {
    const now = this.now();
    this.young.reset(now);
    this.old.reset(now);
  }

  /** Write the key in `scratch` with `value` into the young generation (rotating first when it is full). */
  private store(length: number, hash: number, value: string, expiresAt: number, now: number): void {
    const valueLength = Buffer.byteLength(value, 'utf8');
    const size = HEADER + length + valueLength;
    if (size > this.logBytes) {
      // Too large for any generation: forget the key rather than answer with an older value.
      this.forget(length, hash);
      return;
    }
    let young = this.young;
    if (young.used + size > this.logBytes || young.count >= this.maxCount || now - young.bornAt >= this.rotateEveryMs) {
      this.young = this.old;
      this.old = young;
      this.young.reset(now);
      young = this.young;
    }
    const entry = young.used;
    const { log } = young;
    log.writeUInt32LE(hash, entry);
    log.writeUInt32LE(length, entry + KEY_LENGTH);
    log.writeUInt32LE(valueLength, entry + VALUE_LENGTH);
    log.writeDoubleLE(expiresAt, entry + EXPIRES_AT);
    this.scratch.copy(log, entry + HEADER, 0, length);
    log.write(value, entry + HEADER + length, valueLength, 'utf8');
    young.used += size;
    const slot = young.find(this.scratch, length, hash);
    if (slot >= 0) {
      young.slots[slot] = entry + 1;
    } else {
      young.slots[~slot] = entry + 1;
      young.count += 1;
    }
  }

  /** Expire the key (its bytes in `scratch`) in both generations. */
  private forget(length: number, hash: number): void {
    for (const generation of [this.young, this.old]) {
      const slot = generation.find(this.scratch, length, hash);
      if (slot >= 0) generation.log.writeDoubleLE(0, generation.slots[slot]! - 1 + EXPIRES_AT);
    }
  }

  private valueOf(log: Buffer, entry: number, keyLength: number): string {
    const start = entry + HEADER + keyLength;
    return log.toString('utf8', start, start + log.readUInt32LE(entry + VALUE_LENGTH));
  }

  /** `key` as UTF-8 into `scratch`; its byte length. */
  private encode(key: string): number {
    // UTF-8 takes at most 3 bytes per UTF-16 unit.
    if (key.length * 3 > this.scratch.length) this.scratch = Buffer.allocUnsafeSlow(nextPowerOfTwo(key.length * 3));
    return this.scratch.write(key, 0, 'utf8');
  }
}
