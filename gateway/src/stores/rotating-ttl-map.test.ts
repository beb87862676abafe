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
