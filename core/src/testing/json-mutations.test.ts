import { describe, expect, it } from 'vitest';
import { jsonPaths, mutateJson } from './json-mutations.js';

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
});
