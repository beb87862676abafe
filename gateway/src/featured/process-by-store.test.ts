import { describe, expect, it } from 'vitest';
import { queuesByStore } from './process-by-store.js';

describe("queuesByStore: a batch's units grouped per store, each store in the vendor's order", () => {
  it('keeps the order of first appearance across stores and of units within a store', () => {
    const units = ['A', 'B', 'A', 'C', 'B', 'A'].map((storeId) => ({ storeId }));
    expect(queuesByStore(units)).toEqual([[0, 2, 5], [1, 4], [3]]);
    expect(queuesByStore([])).toEqual([]);
  });

  it('groups a large batch of one merchant (50,000 units; 1 MiB of Clover updates is ~17,000) with a few other stores interleaved', () => {
    const units = Array.from({ length: 50_000 }, (_, i) => ({ storeId: i % 10_000 === 9_999 ? `other-${i}` : 'MERCHANT00001' }));
    const queues = queuesByStore(units);
    expect(queues).toHaveLength(6);
    const [main, ...others] = queues;
    expect(main).toHaveLength(49_995);
    expect(main!.slice(0, 3)).toEqual([0, 1, 2]);
    expect(main!.every((index, i) => i === 0 || index > main![i - 1]!)).toBe(true);
    expect(others).toEqual([[9_999], [19_999], [29_999], [39_999], [49_999]]);
  });
});
