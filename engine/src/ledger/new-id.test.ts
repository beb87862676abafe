import { describe, expect, it } from 'vitest';
import { newId } from './new-id.js';

describe('newId', () => {
  it('is a UUIDv7 that sorts by time', () => {
    const a = newId(1_700_000_000_000);
    const b = newId(1_700_000_000_001);
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(a < b).toBe(true);
    expect(new Set(Array.from({ length: 10_000 }, () => newId())).size).toBe(10_000);
  });

  it('ids made in the same millisecond sort in the order they were made (also across 4,096 of them, and when the clock steps back)', () => {
    const sameMs = Array.from({ length: 5_000 }, () => newId(1_800_000_000_000));
    expect([...sameMs].sort()).toEqual(sameMs);
    const earlierClock = newId(1_700_000_000_000);
    expect(earlierClock > sameMs.at(-1)!).toBe(true);
    for (const id of sameMs) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
