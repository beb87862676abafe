import { randomUUID } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { createMemoryIdempotencyCache, entryBytes } from './memory-idempotency-cache.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function heapAfterGc(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

/**
 * The in-process cache is bounded by the memory its entries take, not by their count: filled far
 * beyond its bound with the gateway's own key shapes, the heap it holds stays near the bound.
 */
describe('the in-process idempotency cache bounded in bytes', () => {
  it('400,000 sales (two keys each, ~220 MB unbounded) held in a 16 MiB cache keep the heap within the bound; recent keys still answer', async () => {
    const maxBytes = 16 * 1024 * 1024;
    const before = heapAfterGc();
    const cache = createMemoryIdempotencyCache({ maxBytes });
    const connection = randomUUID();
    let estimated = 0;
    const last: string[] = [];
    for (let i = 0; i < 400_000; i += 1) {
      const sale = `t:36:${connection}:T-${process.pid}-1795570000000-${i}`;
      const event = `e:36:${connection}:sale.completed:${sale.slice(41)}:completed`;
      await cache.set(sale, '1', 86_400_000);
      await cache.set(event, '1', 86_400_000);
      estimated += entryBytes(sale, '1') + entryBytes(event, '1');
      if (i >= 399_990) last.push(sale);
    }
    const grown = heapAfterGc() - before;
    expect(estimated).toBeGreaterThan(10 * maxBytes);
    expect(grown).toBeLessThan(maxBytes * 1.25);
    for (const key of last) expect(await cache.get(key)).toBe('1');
    await cache.close();
  }, 60_000);
});
