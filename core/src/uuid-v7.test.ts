import { describe, expect, it } from 'vitest';
import { uuidV7 } from './uuid-v7.js';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const millisOf = (id: string) => parseInt(id.slice(0, 8) + id.slice(9, 13), 16);

describe('uuidV7', () => {
  it('writes the millisecond in the first 48 bits, exactly, across the whole range', () => {
    for (const ms of [0, 1, 0xffff, 0x10000, 1_764_300_000_123, Date.now(), 2 ** 48 - 1]) {
      const id = uuidV7(ms);
      expect(id).toMatch(UUID_V7);
      expect(millisOf(id)).toBe(ms);
    }
    expect(uuidV7(1_764_300_000_123).slice(0, 13)).toBe('019ac879-8b7b'); // (1764300000123).toString(16) = 19ac8798b7b
  });

  it('puts a given counter in rand_a, so ids of one millisecond sort in counter order', () => {
    expect(uuidV7(5, 0).slice(14, 18)).toBe('7000');
    expect(uuidV7(5, 0xabc).slice(14, 18)).toBe('7abc');
    expect(uuidV7(5, 0xfff).slice(14, 18)).toBe('7fff');
    const ids = Array.from({ length: 4096 }, (_, counter) => uuidV7(1_800_000_000_000, counter));
    expect([...ids].sort()).toEqual(ids);
  });

  it('fills the other bits at random: every random hex digit takes many values, and 20,000 ids are all different', () => {
    const ids = Array.from({ length: 20_000 }, () => uuidV7(1_764_300_000_000));
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(UUID_V7);
    // rand_a (without a counter), the variant's group after its first two bits, and the last group.
    for (const position of [15, 16, 17, 20, 21, 22, ...Array.from({ length: 12 }, (_, i) => 24 + i)]) {
      expect(new Set(ids.map((id) => id[position])).size, `hex digit ${position}`).toBe(16);
    }
    expect(new Set(ids.map((id) => id[19]))).toEqual(new Set(['8', '9', 'a', 'b']));
  });
});
