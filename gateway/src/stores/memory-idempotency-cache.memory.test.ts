import { hash, randomUUID } from 'node:crypto';
import type { Connection } from '@loyalty-gateway/core';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { eventKey, saleKey } from '../webhooks/idempotency-keys.js';
import { createMemoryIdempotencyCache } from './memory-idempotency-cache.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function heapAfterGc(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

/** Bytes held in ArrayBuffers (the cache's logs and indexes live there, outside V8's heap). */
const arrayBuffers = (): number => process.memoryUsage().arrayBuffers;

/**
 * The in-process cache is bounded by the memory its entries take, not by their count, and that
 * memory is outside V8's heap: filled far beyond its bound with the gateway's own key shapes, the
 * heap does not grow with it and its buffers stay within the bound.
 */
describe('the in-process idempotency cache bounded in bytes, outside the heap', () => {
  it('400,000 sales (two keys each, ~60 MB of keys alone) held in a 16 MiB cache: buffers within the bound, the heap unmoved; recent keys still answer', async () => {
    const maxBytes = 16 * 1024 * 1024;
    const heapBefore = heapAfterGc();
    const buffersBefore = arrayBuffers();
    const cache = createMemoryIdempotencyCache({ maxBytes });
    const connection = randomUUID();
    let written = 0;
    const last: string[] = [];
    for (let i = 0; i < 400_000; i += 1) {
      const sale = `t:36:${connection}:T-${process.pid}-1795570000000-${i}`;
      const event = `e:36:${connection}:sale.completed:${sale.slice(41)}:completed`;
      await cache.set(sale, '1', 86_400_000);
      await cache.set(event, '1', 86_400_000);
      written += sale.length + event.length + 2;
      if (i >= 399_990) last.push(sale);
    }
    expect(written).toBeGreaterThan(3 * maxBytes);
    expect(arrayBuffers() - buffersBefore).toBeLessThanOrEqual(maxBytes + 64 * 1024);
    expect(heapAfterGc() - heapBefore).toBeLessThan(1024 * 1024);
    for (const key of last) expect(await cache.get(key)).toBe('1');
    await cache.close();
  }, 60_000);

  it('sales remembered as the webhook pipeline remembers them (keys and marks built from their parts) leave nothing of theirs on the heap', async () => {
    const maxBytes = 64 * 1024 * 1024;
    const heapBefore = heapAfterGc();
    const cache = createMemoryIdempotencyCache({ maxBytes });
    const connection = { id: randomUUID() } as Connection;
    const sales: string[] = [];
    for (let i = 0; i < 100_000; i += 1) {
      // As webhook-pipeline.ts builds them: each part a string of its own, joined by template
      // literals (V8 keeps such a string as a tree of 32-byte cons nodes over its parts).
      const transactionId = (JSON.parse(`{"id":"T-${process.pid}-${i}"}`) as { id: string }).id;
      const fingerprint = hash('sha256', `${transactionId}|12.50|USD`, 'hex');
      const sale = saleKey(connection, transactionId);
      const mark = `fp1:${fingerprint}:${new Date().toISOString()}`;
      const event = eventKey(connection, 'sale.completed', `${transactionId}:completed`);
      await cache.set(sale, mark, 86_400_000);
      await cache.set(event, '1', 86_400_000);
      if (i % 10_000 === 0) sales.push(sale);
    }
    // ~27 MB of entries, all still held (below half the bound nothing is dropped).
    expect(heapAfterGc() - heapBefore).toBeLessThan(1024 * 1024);
    for (const sale of sales) expect(await cache.get(sale)).toMatch(/^fp1:[0-9a-f]{64}:/);
    await cache.close();
  }, 60_000);
});
