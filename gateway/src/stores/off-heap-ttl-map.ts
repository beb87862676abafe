/**
 * A bounded string → string map with per-entry expiry whose entries live outside V8's heap: each
 * generation is one byte log (a Buffer: key and value as UTF-8 behind a small header) and an
 * open-addressing index into it (a Uint32Array). Both are ArrayBuffer backing stores the garbage
 * collector never scans, copies or promotes.
 *
 * Why: the in-process idempotency cache keeps every sale for a day, so as JS strings in a Map each
 * entry outlived the young generation, was promoted, and later died in the old one, where only full
 * mark-compacts reclaim it. Under load that was a steady stream of promotions and mark-compacts on
 * the event loop (docs/benchmarks.md, "Where the memory goes": the idempotency cache off the heap).
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

/**
 * An entry: a 24-byte header — the key's hash, the key's and the value's byte lengths (u32 each),
 * 4 bytes unused, its expiry (f64, ms) — then the key and the value as UTF-8, padded to 8 bytes so
 * that every header is read through typed-array views of the log (one load each, no bounds-checked
 * Buffer reads) and a key is compared four bytes at a time.
 */
const HEADER = 24;
/** Header fields as u32 indexes from the entry's start / 4, and the expiry as an f64 index from its start / 8. */
const KEY_LENGTH = 1;
const VALUE_LENGTH = 2;
const EXPIRES_AT = 2;
/**
 * One index slot (4 bytes) per 64 bytes of a generation: at half the slots in use the log is full
 * first for entries of ~120 bytes and more (the gateway's are 100–200), so the index is ~6 % of the bound.
 */
const BYTES_PER_SLOT = 64;
const MIN_SLOTS = 8;

const nextPowerOfTwo = (n: number): number => 2 ** Math.ceil(Math.log2(Math.max(n, 1)));
const align8 = (n: number): number => (n + 7) & ~7;

/** A key's UTF-8 bytes, with a u32 view of them (both over one aligned backing store, grown when a longer key comes). */
class KeyBytes {
  bytes = Buffer.allocUnsafeSlow(256);
  words = new Uint32Array(this.bytes.buffer, 0, 64);
  length = 0;
  hash = 0;

  /** Encode `key` and hash it. */
  set(key: string): void {
    // UTF-8 takes at most 3 bytes per UTF-16 unit.
    if (key.length * 3 > this.bytes.length) {
      this.bytes = Buffer.allocUnsafeSlow(nextPowerOfTwo(key.length * 3));
      this.words = new Uint32Array(this.bytes.buffer, 0, this.bytes.length >>> 2);
    }
    this.length = this.bytes.write(key, 0, 'utf8');
    this.hash = murmur3(this.bytes, this.words, this.length);
  }

  /** Whether the key's bytes equal `length` bytes of `log` from byte `start` (8-aligned). */
  equals(log: Buffer, log32: Uint32Array, start: number): boolean {
    const { bytes, words, length } = this;
    const whole = length >>> 2;
    const from = start >>> 2;
    for (let i = 0; i < whole; i += 1) if (log32[from + i] !== words[i]) return false;
    for (let i = whole << 2; i < length; i += 1) if (log[start + i] !== bytes[i]) return false;
    return true;
  }
}

/** MurmurHash3 (x86, 32-bit) of `length` bytes, read four at a time through `words`. */
function murmur3(bytes: Buffer, words: Uint32Array, length: number): number {
  let h = 0x9747b28c;
  const whole = length >>> 2;
  for (let i = 0; i < whole; i += 1) {
    let k = Math.imul(words[i]!, 0xcc9e2d51);
    k = Math.imul((k << 15) | (k >>> 17), 0x1b873593);
    h ^= k;
    h = (Math.imul((h << 13) | (h >>> 19), 5) + 0xe6546b64) | 0;
  }
  let k = 0;
  for (let i = length - 1; i >= whole << 2; i -= 1) k = (k << 8) | bytes[i]!;
  if (length & 3) {
    k = Math.imul(k, 0xcc9e2d51);
    h ^= Math.imul((k << 15) | (k >>> 17), 0x1b873593);
  }
  h ^= length;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** The hash a key is indexed by (tests: keys whose hashes are equal). */
export function hashKey(key: string): number {
  hashed.set(key);
  return hashed.hash;
}
const hashed = new KeyBytes();

class Generation {
  readonly log: Buffer;
  /** The log as u32s and as f64s (its backing store is its own, so both views start at 0). */
  readonly log32: Uint32Array;
  readonly log64: Float64Array;
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
    this.log32 = new Uint32Array(this.log.buffer, 0, logBytes >>> 2);
    this.log64 = new Float64Array(this.log.buffer, 0, logBytes >>> 3);
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

  /** The slot holding `key`, or the empty slot where it would go: `~slot`. */
  find(key: KeyBytes): number {
    const { log, log32, slots, mask } = this;
    const { hash, length } = key;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const at = slots[slot]!;
      if (at === 0) return ~slot;
      const entry = at - 1;
      if (log32[entry >>> 2] === hash && log32[(entry >>> 2) + KEY_LENGTH] === length && key.equals(log, log32, entry + HEADER))
        return slot;
    }
  }

  expiresAt(entry: number): number {
    return this.log64[(entry >>> 3) + EXPIRES_AT]!;
  }

  value(entry: number): string {
    const start = entry + HEADER + this.log32[(entry >>> 2) + KEY_LENGTH]!;
    return this.log.toString('utf8', start, start + this.log32[(entry >>> 2) + VALUE_LENGTH]!);
  }
}

export class OffHeapTtlMap {
  private young: Generation;
  private old: Generation;
  private readonly logBytes: number;
  private readonly maxCount: number;
  private readonly now: () => number;
  private readonly rotateEveryMs: number;
  /** The key being looked up or stored. */
  private readonly key = new KeyBytes();

  constructor(options: OffHeapTtlMapOptions) {
    if (!(options.maxBytes >= 2 * (HEADER + MIN_SLOTS * BYTES_PER_SLOT)))
      throw new RangeError(`maxBytes must be at least ${2 * (HEADER + MIN_SLOTS * BYTES_PER_SLOT)}`);
    const generationBytes = Math.floor(options.maxBytes / 2);
    // The largest power of two of slots whose index leaves the log at least 15/16 of the generation.
    let slotCount = nextPowerOfTwo(Math.ceil(generationBytes / BYTES_PER_SLOT));
    if (slotCount * 4 > generationBytes / 16) slotCount /= 2;
    slotCount = Math.max(MIN_SLOTS, slotCount);
    this.logBytes = (generationBytes - slotCount * 4) & ~7;
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
    this.key.set(key);
    const now = this.now();
    const { young, old } = this;
    const youngSlot = young.find(this.key);
    if (youngSlot >= 0) {
      const entry = young.slots[youngSlot]! - 1;
      // An expired young entry is the key's newest: the old generation's is older still.
      return young.expiresAt(entry) > now ? young.value(entry) : undefined;
    }
    const oldSlot = old.find(this.key);
    if (oldSlot < 0) return undefined;
    const entry = old.slots[oldSlot]! - 1;
    const expiresAt = old.expiresAt(entry);
    if (expiresAt <= now) return undefined;
    const value = old.value(entry);
    this.store(value, expiresAt, now);
    return value;
  }

  set(key: string, value: string, ttlMs: number): void {
    this.key.set(key);
    const now = this.now();
    this.store(value, now + ttlMs, now);
  }

  clear(): void {
    const now = this.now();
    this.young.reset(now);
    this.old.reset(now);
  }

  /** Write the current key with `value` into the young generation (rotating first when it is full). */
  private store(value: string, expiresAt: number, now: number): void {
    const { length, hash } = this.key;
    const valueLength = Buffer.byteLength(value, 'utf8');
    const size = align8(HEADER + length + valueLength);
    if (size > this.logBytes) {
      // Too large for any generation: forget the key rather than answer with an older value.
      this.forget();
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
    const { log, log32, log64 } = young;
    log32[entry >>> 2] = hash;
    log32[(entry >>> 2) + KEY_LENGTH] = length;
    log32[(entry >>> 2) + VALUE_LENGTH] = valueLength;
    log64[(entry >>> 3) + EXPIRES_AT] = expiresAt;
    this.key.bytes.copy(log, entry + HEADER, 0, length);
    log.write(value, entry + HEADER + length, valueLength, 'utf8');
    young.used += size;
    const slot = young.find(this.key);
    if (slot >= 0) {
      young.slots[slot] = entry + 1;
    } else {
      young.slots[~slot] = entry + 1;
      young.count += 1;
    }
  }

  /** Expire the current key in both generations. */
  private forget(): void {
    for (const generation of [this.young, this.old]) {
      const slot = generation.find(this.key);
      if (slot >= 0) generation.log64[((generation.slots[slot]! - 1) >>> 3) + EXPIRES_AT] = 0;
    }
  }
}
