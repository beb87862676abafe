import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hashKey, OffHeapTtlMap } from './off-heap-ttl-map.js';

describe('OffHeapTtlMap', () => {
  it('returns what was set, misses unknown keys, and keeps keys apart that differ by one byte, by case or by encoding', () => {
    const map = new OffHeapTtlMap({ maxBytes: 64 * 1024, now: () => 0 });
    const keys = ['t:1:abc', 't:1:abd', 'T:1:abc', 't:1:ab', 't:1:abc ', 'café', 'cafe\u0301', '店-1', '😀', ''];
    keys.forEach((key, i) => map.set(key, `value ${i} ✓`, 1_000));
    keys.forEach((key, i) => expect(map.get(key)).toBe(`value ${i} ✓`));
    expect(map.get('t:1:abe')).toBeUndefined();
    expect(map.size).toBe(keys.length);
  });

  it('expires each entry at its own deadline, and an overwrite restarts it', () => {
    let now = 1_000;
    const map = new OffHeapTtlMap({ maxBytes: 64 * 1024, now: () => now });
    map.set('short', 'a', 10);
    map.set('long', 'b', 1_000);
    map.set('again', 'first', 10);
    map.set('again', 'second', 500);
    now += 9;
    expect(map.get('short')).toBe('a');
    now += 1;
    expect(map.get('short')).toBeUndefined();
    expect(map.get('long')).toBe('b');
    expect(map.get('again')).toBe('second');
  });

  it('stays within maxBytes however much is written, and keeps the entries still being read', () => {
    const maxBytes = 16 * 1024;
    const map = new OffHeapTtlMap({ maxBytes, now: () => 0 });
    map.set('hot', 'kept', 1_000);
    for (let i = 0; i < 20_000; i += 1) {
      map.set(`key-${i}`, 'x'.repeat(i % 50), 1_000);
      expect(map.get('hot')).toBe('kept');
      expect(map.bytes).toBeLessThanOrEqual(maxBytes);
    }
    expect(map.get('key-19999')).toBe('x'.repeat(19_999 % 50));
    expect(map.get('key-0')).toBeUndefined();
  });

  it('bounds the count as well: entries far smaller than a slot rotate by the index, never fill it', () => {
    const map = new OffHeapTtlMap({ maxBytes: 64 * 1024, now: () => 0 });
    for (let i = 0; i < 100_000; i += 1) map.set(String(i), '', 1_000);
    // 64 KiB: 32 KiB a generation, 512 slots (2 KiB) each, at most 256 entries in each.
    expect(map.size).toBeLessThanOrEqual(512);
    expect(map.size).toBeGreaterThan(256);
    expect(map.get('99999')).toBe('');
  });

  it('an entry rotated into the old generation still expires at its deadline, and a live one read there moves to the young one', () => {
    let now = 0;
    // 4 KiB: 2 KiB a generation, 32 slots, at most 16 entries in each.
    const map = new OffHeapTtlMap({ maxBytes: 4 * 1024, now: () => now });
    map.set('brief', 'a', 100);
    map.set('lasting', 'b', 10_000);
    for (let i = 0; i < 16; i += 1) map.set(`filler-${i}`, 'x', 10_000); // rotates: both are now old
    expect(map.size).toBe(18);
    now = 100;
    expect(map.get('brief')).toBeUndefined();
    expect(map.get('lasting')).toBe('b');
    for (let i = 16; i < 32; i += 1) map.set(`filler-${i}`, 'x', 10_000); // rotates again: the old generation is emptied
    expect(map.get('lasting')).toBe('b');
    expect(map.get('filler-0')).toBeUndefined();
  });

  it('tells apart two keys of one length whose hashes are equal', () => {
    // Two such keys exist among ~2^17 of one length (the birthday bound of a 32-bit hash): find them.
    // (Keys that differ only after their last whole four-byte word never hash alike: with the words
    // before equal, murmur3's tail step is a bijection of those bytes.)
    const seen = new Map<number, string>();
    let pair: [string, string] | undefined;
    for (let i = 0; pair === undefined; i += 1) {
      const key = `T-${String(i).padStart(8, '0')}`;
      const other = seen.get(hashKey(key));
      if (other === undefined) seen.set(hashKey(key), key);
      else pair = [other, key];
    }
    const map = new OffHeapTtlMap({ maxBytes: 64 * 1024, now: () => 0 });
    map.set(pair[0], 'first', 1_000);
    expect(map.get(pair[1])).toBeUndefined();
    map.set(pair[1], 'second', 1_000);
    expect([map.get(pair[0]), map.get(pair[1])]).toEqual(['first', 'second']);
  });

  it('reclaims expired entries by age without any read of them', () => {
    let now = 0;
    const map = new OffHeapTtlMap({ maxBytes: 64 * 1024, now: () => now, rotateEveryMs: 100 });
    for (let i = 0; i < 50; i += 1) map.set(`old${i}`, String(i), 100);
    now = 150;
    map.set('a', '1', 100);
    now = 300;
    map.set('b', '2', 100);
    expect(map.size).toBe(2);
  });

  it('forgets a key whose newest value is larger than a generation, rather than answer with the older value', () => {
    const map = new OffHeapTtlMap({ maxBytes: 4 * 1024, now: () => 0 });
    map.set('k', 'small', 1_000);
    map.set('filler', 'y', 1_000);
    map.set('k', 'z'.repeat(10_000), 1_000);
    expect(map.get('k')).toBeUndefined();
    expect(map.get('filler')).toBe('y');
    map.set('k', 'small again', 1_000);
    expect(map.get('k')).toBe('small again');
  });

  it('keys longer than its scratch space (grown on demand)', () => {
    const map = new OffHeapTtlMap({ maxBytes: 64 * 1024, now: () => 0 });
    const long = `k-${'é'.repeat(2_000)}`;
    map.set(long, 'v', 1_000);
    expect(map.get(long)).toBe('v');
    expect(map.get(long.slice(0, -1))).toBeUndefined();
  });

  it('refuses a bound too small for one generation', () => {
    expect(() => new OffHeapTtlMap({ maxBytes: 100 })).toThrow(RangeError);
  });

  it('answers like a plain Map, or not at all, through any sequence of sets, reads, expiries and rotations', () => {
    const op = fc.oneof(
      fc.record({
        kind: fc.constant('set' as const),
        key: fc.integer({ min: 0, max: 60 }),
        value: fc.string({ maxLength: 40 }),
        ttl: fc.integer({ min: 1, max: 50 }),
      }),
      fc.record({ kind: fc.constant('get' as const), key: fc.integer({ min: 0, max: 60 }) }),
      fc.record({ kind: fc.constant('tick' as const), ms: fc.integer({ min: 1, max: 20 }) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 300 }), fc.integer({ min: 1_100, max: 8_192 }), (ops, maxBytes) => {
        let now = 0;
        const map = new OffHeapTtlMap({ maxBytes, now: () => now, rotateEveryMs: 60 });
        const truth = new Map<string, { value: string; expiresAt: number }>();
        for (const step of ops) {
          if (step.kind === 'tick') {
            now += step.ms;
          } else if (step.kind === 'set') {
            map.set(`key:${step.key}`, step.value, step.ttl);
            truth.set(`key:${step.key}`, { value: step.value, expiresAt: now + step.ttl });
          } else {
            const got = map.get(`key:${step.key}`);
            const want = truth.get(`key:${step.key}`);
            // A cache may drop an entry early; it may never answer a stale, expired or foreign value.
            if (got !== undefined) {
              expect(want).toBeDefined();
              expect(got).toBe(want!.value);
              expect(want!.expiresAt).toBeGreaterThan(now);
            }
          }
          expect(map.bytes).toBeLessThanOrEqual(maxBytes);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('holds everything written while within one generation', () => {
    const map = new OffHeapTtlMap({ maxBytes: 1024 * 1024, now: () => 0 });
    for (let i = 0; i < 2_000; i += 1) map.set(`t:36:connection:T-${i}`, `fp1:${i}`, 1_000);
    for (let i = 0; i < 2_000; i += 1) expect(map.get(`t:36:connection:T-${i}`)).toBe(`fp1:${i}`);
  });
});
