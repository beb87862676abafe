import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { timeOrderedUuid } from '../http/request-id.js';
import { idFloor, idRegion, receivedAtOfId, requestIdTime, requestKey, timeOrderedId, transactionKey } from './journal-ids.js';

describe('timeOrderedId', () => {
  it('begins with the time it is given, whether the time before it was the same or another, and sorts by time, then by the order of recording', () => {
    const times = [1_764_300_000_000, 1_764_300_000_000, 1_764_300_000_001, 1_764_300_000_000, 0, 1_764_300_000_001.7, 1_764_300_000_002];
    const ids = times.map((at) => timeOrderedId(at));
    expect(ids.map((id) => id.slice(0, 9))).toEqual(times.map((at) => idFloor(at)));
    expect(ids.map((id) => receivedAtOfId(id))).toEqual(times.map((at) => Math.floor(at)));
    expect(ids.every((id) => /^[0-9a-z]{9}-[0-9a-z]{5}-[0-9a-f]{12}$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect([ids[0], ids[1], ids[2], ids[6]]).toEqual([ids[0], ids[1], ids[2], ids[6]].sort());
  });
});

describe('transactionKey', () => {
  it('is stable (keys and regions stored by any build stay valid), a 32-bit integer, and keeps ids that arrive in order next to each other', () => {
    // '' and 'a': FNV-1a's offset basis 0x811c9dc5 in the high half, the characters in the low half.
    expect([transactionKey(''), transactionKey('a'), transactionKey('T-1'), transactionKey('foobar')]).toEqual([
      -2128871424, -2128871327, -787731151, 1062232434,
    ]);
    for (const id of ['T-1', '7c9e6679-7425-40de-944b-e07fc1f90ae7', 'x'.repeat(255), '\u00e9t\u00e9 \ud83d\ude00']) {
      const key = transactionKey(id);
      expect(Number.isInteger(key) && key >= -(2 ** 31) && key < 2 ** 31).toBe(true);
    }
    // The regions and request keys stored since migration 0008 stay valid too.
    const ids = ['', 'a', 'T-1', 'req-1', '0193a1b2-c3d4-7e5f-8a9b-000000000001', 'foobar'];
    expect(ids.map((id) => [idRegion(id), requestKey(id)])).toEqual([
      [5, -2128831035],
      [12, -468965076],
      [1, -683735935],
      [1, -619311343],
      [2, -1122482238],
      [8, -1080231576],
    ]);
    // A run of receipt numbers: the same high half, ascending low halves.
    const keys = Array.from({ length: 100 }, (_, n) => transactionKey(`R-2026-11-0042${String(n).padStart(2, '0')}`));
    expect(new Set(keys.map((k) => k >> 16)).size).toBe(1);
    expect(keys).toEqual([...keys].sort((a, b) => a - b));
    expect(new Set(keys).size).toBe(100);
  });
});

describe('requestIdTime', () => {
  it('is the millisecond of a generated request id (a UUIDv7), and nothing for any other id', () => {
    for (const at of [0, 1, 1_764_300_000_000, 2 ** 48 - 1]) expect(requestIdTime(timeOrderedUuid(at))).toBe(at);
    for (const id of [
      'req-1',
      randomUUID(),
      timeOrderedUuid(1_764_300_000_000).toUpperCase(),
      `${timeOrderedUuid(5)}x`,
      '019ad0f4-6c00-7abc-8def-0123456789',
    ])
      expect(requestIdTime(id)).toBeUndefined();
  });
});
