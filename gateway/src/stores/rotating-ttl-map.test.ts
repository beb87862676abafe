import { describe, expect, it } from 'vitest';
import { RotatingTtlMap } from './rotating-ttl-map.js';

describe('RotatingTtlMap', () => {
  it('expires each entry at its own deadline', () => {
    let now = 1_000;
    const map = new RotatingTtlMap<string>({ maxEntries: 100, now: () => now });
    map.set('short', 'a', 10);
    map.set('long', 'b', 1_000);
    now += 9;
    expect(map.get('short')).toBe('a');
    now += 1;
    expect(map.get('short')).toBeUndefined();
    expect(map.get('long')).toBe('b');
  });

  it('never holds more than maxEntries, and keeps the entries still being read', () => {
    const map = new RotatingTtlMap<number>({ maxEntries: 10, now: () => 0 });
    map.set('hot', -1, 1_000);
    for (let i = 0; i < 1_000; i += 1) {
      map.set(`k${i}`, i, 1_000);
      expect(map.get('hot')).toBe(-1);
      expect(map.size).toBeLessThanOrEqual(10);
    }
    expect(map.get('k999')).toBe(999);
    expect(map.get('k0')).toBeUndefined();
  });

  it('reclaims expired entries by age without any read of them', () => {
    let now = 0;
    const map = new RotatingTtlMap<number>({ maxEntries: 1_000, now: () => now, rotateEveryMs: 100 });
    for (let i = 0; i < 50; i += 1) map.set(`old${i}`, i, 100);
    now = 150;
    map.set('a', 1, 100);
    now = 300;
    map.set('b', 2, 100);
    expect(map.size).toBe(2);
  });

  it('overwrites and deletes across both generations', () => {
    const map = new RotatingTtlMap<number>({ maxEntries: 4, now: () => 0 });
    map.set('x', 1, 100);
    map.set('y', 1, 100);
    map.set('z', 1, 100); // rotates: x, y are now old
    map.set('x', 2, 100);
    expect(map.get('x')).toBe(2);
    map.delete('y');
    expect(map.get('y')).toBeUndefined();
  });
});

describe('RotatingTtlMap bounded by bytes', () => {
  const weigh = (key: string, value: string) => key.length + value.length;

  it('never holds more than maxBytes of weighed entries, and its count is exact through overwrite, read, delete and rotation', () => {
    const map = new RotatingTtlMap<string>({ maxEntries: 1_000_000, maxBytes: 1_000, weigh, now: () => 0 });
    const truth = new Map<string, string>();
    for (let i = 0; i < 5_000; i += 1) {
      const key = `key-${i % 700}`;
      const value = 'v'.repeat(1 + (i % 13));
      map.set(key, value, 1_000);
      truth.set(key, value);
      if (i % 7 === 0) map.get(`key-${(i * 31) % 700}`);
      if (i % 11 === 0) map.delete(`key-${(i * 17) % 700}`);
      expect(map.bytes).toBeLessThanOrEqual(1_000 + 30);
    }
    // The count equals the weight of what is really held.
    let held = 0;
    for (const [key, value] of truth) if (map.get(key) === value) held += weigh(key, value);
    expect(map.bytes).toBe(held);
  });

  it('refuses a byte bound without a way to weigh entries', () => {
    expect(() => new RotatingTtlMap<string>({ maxEntries: 10, maxBytes: 100 })).toThrow(RangeError);
  });
});
