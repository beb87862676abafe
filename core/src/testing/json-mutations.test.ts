import { describe, expect, it } from 'vitest';
import { catalogItemProblems, envelopeProblems, jsonPaths, mutateJson } from './json-mutations.js';

describe('json mutations (fuzzing building blocks)', () => {
  const base = { a: { b: [1, { c: 'x' }] }, d: null };

  it('lists every path, the root first and parents before children', () => {
    expect(jsonPaths(base)).toEqual([[], ['a'], ['a', 'b'], ['a', 'b', 0], ['a', 'b', 1], ['a', 'b', 1, 'c'], ['d']]);
    expect(jsonPaths('text')).toEqual([[]]);
  });

  it('sets, deletes (splicing arrays) and adds a key to an object, never changing the base', () => {
    const before = structuredClone(base);
    expect(mutateJson(base, ['a', 'b', 1, 'c'], 'set', 7)).toEqual({ a: { b: [1, { c: 7 }] }, d: null });
    expect(mutateJson(base, ['a', 'b', 0], 'delete', null)).toEqual({ a: { b: [{ c: 'x' }] }, d: null });
    expect(mutateJson(base, ['d'], 'delete', null)).toEqual({ a: { b: [1, { c: 'x' }] } });
    expect(mutateJson(base, ['a'], 'add', 'v', 'k')).toEqual({ a: { b: [1, { c: 'x' }], k: 'v' }, d: null });
    expect(mutateJson(base, ['a', 'b'], 'add', 'v', 'k')).toEqual(base); // an array gets no key
    expect(mutateJson(base, [], 'set', 3)).toBe(3);
    expect(base).toEqual(before);
  });

  it('says why the door or a catalog pull would refuse what an adapter made, or nothing', () => {
    const item = { externalId: 'p1', name: 'Latte', price: 4.5, isActive: true };
    expect(catalogItemProblems(item)).toEqual([]);
    expect(catalogItemProblems({ ...item, name: 'a\u0000' })).toEqual(['name: must not contain NUL characters or unpaired surrogates']);
    expect(catalogItemProblems({ ...item, price: 4.505 })).not.toEqual([]);
    expect(envelopeProblems({ eventId: 'e', eventType: 'sale.voided' })).not.toEqual([]);
  });
});
