import { hash, randomUUID } from 'node:crypto';
import type { Connection } from '@loyalty-gateway/core';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { eventKey, saleKey } from '../webhooks/idempotency-keys.js';
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

  it('sales remembered as the webhook pipeline remembers them (keys and marks built from their parts) take no more heap than they are weighed at', async () => {
    // Below half the bound nothing is dropped: the heap the entries hold is compared with their weight.
    const maxBytes = 64 * 1024 * 1024;
    const before = heapAfterGc();
    const cache = createMemoryIdempotencyCache({ maxBytes });
    const connection = { id: randomUUID() } as Connection;
    let estimated = 0;
    for (let i = 0; estimated < 24 * 1024 * 1024; i += 1) {
      // As webhook-pipeline.ts builds them: each part a string of its own, joined by template
      // literals (V8 keeps such a string as a tree of 32-byte cons nodes over its parts).
      const transactionId = (JSON.parse(`{"id":"T-${process.pid}-${i}"}`) as { id: string }).id;
      const fingerprint = hash('sha256', `${transactionId}|12.50|USD`, 'hex');
      const sale = saleKey(connection, transactionId);
      const mark = `fp1:${fingerprint}:${new Date().toISOString()}`;
      const event = eventKey(connection, 'sale.completed', `${transactionId}:completed`);
      await cache.set(sale, mark, 86_400_000);
      await cache.set(event, '1', 86_400_000);
      estimated += entryBytes(sale, mark) + entryBytes(event, '1');
    }
    const grown = heapAfterGc() - before;
    expect(grown).toBeLessThan(estimated * 1.1);
    await cache.close();
  }, 60_000);
});
