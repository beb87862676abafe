import { describe, expect, it } from 'vitest';
import { chunkByWeight } from './chunk-by-weight.js';

describe('chunkByWeight (what bounds one statement or command built from many items)', () => {
  it('cuts items in order into runs of at most max; an item heavier than max goes alone; nothing is lost', () => {
    const items = [40, 40, 200, 10, 10, 10].map((weight, n) => ({ n: n + 1, weight }));
    const runs = (max: number) => chunkByWeight(items, (item) => item.weight, max).map((run) => run.map((item) => item.n));
    expect(runs(120)).toEqual([[1, 2], [3], [4, 5, 6]]);
    expect(runs(80)).toEqual([[1, 2], [3], [4, 5, 6]]);
    expect(runs(79)).toEqual([[1], [2], [3], [4, 5, 6]]);
    expect(runs(1_000)).toEqual([[1, 2, 3, 4, 5, 6]]);
    expect(chunkByWeight([], () => 1, 10)).toEqual([]);
  });
});
