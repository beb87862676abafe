import { randomUUID } from 'node:crypto';
import { ErrorBody, type IdempotencyCache } from '@loyalty-gateway/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIdempotencyCache, createMemoryIdempotencyCache } from '../../src/stores/index.js';
import { countingEngine, type EngineCallCounts } from '../../src/testing/counting-engine.js';
import { openGateway, type GatewayFixture } from '../../src/testing/gateway-fixture.js';
import { refund, sale } from '../../src/testing/test-seed.js';

/** A fresh, empty cache: the state after a restart (memory) or a flushed Redis. */
type CacheFactory = () => IdempotencyCache;
const backends: Array<{ name: string; open: CacheFactory }> = [{ name: 'memory', open: () => createMemoryIdempotencyCache() }];
if (process.env.REDIS_URL) {
  backends.push({
    name: 'redis',
    open: () => createIdempotencyCache({ redisUrl: process.env.REDIS_URL!, keyPrefix: `lg-test:${randomUUID()}:` }),
  });
}

const unique = (label: string) => `${label}-${randomUUID().slice(0, 8)}`;

describe.each(backends)('a refund id reused for another order gets the same answer from a warm or a fresh cache ($name)', ({ open }) => {
  const caches: IdempotencyCache[] = [];
  let gw: GatewayFixture;
  let calls: EngineCallCounts;

  /** Another gateway process on the same ledger, with an empty cache. */
  async function restarted(): Promise<GatewayFixture> {
    const cache = open();
    caches.push(cache);
    return openGateway({ database: gw.database, masterKey: gw.masterKey, idempotency: cache });
  }

  beforeAll(async () => {
    const cache = open();
    caches.push(cache);
    gw = await openGateway({
      idempotency: cache,
      wrapEngine: (engine) => {
        const counted = countingEngine(engine);
        calls = counted.calls;
        return counted.engine;
      },
    });
  });
  afterAll(async () => {
    await gw.close();
    for (const cache of caches) await cache.close();
  });

  async function expectReused(fixture: GatewayFixture, body: unknown, firstOrder: string) {
    const response = await fixture.send(body);
    expect(response.statusCode, response.body).toBe(400);
    const error = ErrorBody.parse(response.json());
    expect(error.code).toBe('refund_id_reused');
    expect(error.message).toContain(firstOrder);
  }

  async function twoSales(): Promise<[string, string]> {
    const first = sale({ total: 20 });
    const second = sale({ total: 30 });
    expect((await gw.send(first)).json().status).toBe('processed');
    expect((await gw.send(second)).json().status).toBe('processed');
    return [first.transaction.id, second.transaction.id];
  }

  it('used by sale.refunded for S-1, reused for S-2: 400 refund_id_reused from both caches; the identical retry is duplicate from both', async () => {
    const [s1, s2] = await twoSales();
    const refundId = unique('RF');
    const original = refund(s1, refundId);
    expect((await gw.send(original)).json()).toMatchObject({ status: 'processed', pointsReversed: 20 });
    const before = await gw.balance('MBR-0001');

    // warm cache: the key is there with another fingerprint, so the ledger decides
    await expectReused(gw, { ...refund(s2, refundId), eventId: unique('EV') }, s1);
    await expectReused(gw, refund(s2, refundId), s1); // even under the original's eventId
    const reverseCalls = calls.reverse;
    expect((await gw.send(original)).json()).toMatchObject({ status: 'duplicate', pointsReversed: 0 });
    expect(calls.reverse).toBe(reverseCalls); // the identical retry came from the cache

    const fresh = await restarted();
    try {
      await expectReused(fresh, { ...refund(s2, refundId), eventId: unique('EV') }, s1);
      expect((await fresh.send(original)).json()).toMatchObject({ status: 'duplicate', pointsReversed: 0 });
    } finally {
      await fresh.close();
    }
    expect(await gw.balance('MBR-0001')).toBe(before);
  });

  it('another amount for the same order is a reuse too; the same amount is a duplicate', async () => {
    const [s1] = await twoSales();
    const refundId = unique('RF');
    expect((await gw.send(refund(s1, refundId, 5))).json()).toMatchObject({ status: 'processed', pointsReversed: 5 });
    await expectReused(gw, { ...refund(s1, refundId, 6), eventId: unique('EV') }, 'another amount');
    await expectReused(gw, { ...refund(s1, refundId), eventId: unique('EV') }, 'another amount');
    expect((await gw.send({ ...refund(s1, refundId, 5), eventId: unique('EV') })).json().status).toBe('duplicate');
  });

  it('used by /v1/refund for S-1, reused by sale.refunded for S-2: 400 from both caches; the identical webhook is duplicate, from the cache', async () => {
    const [s1, s2] = await twoSales();
    const refundId = unique('RFD');
    const direct = await gw.post('/v1/refund', { externalTransactionId: s1, refundTransactionId: refundId });
    expect(direct.json()).toMatchObject({ status: 'REVERSED', pointsReversed: 20 });

    await expectReused(gw, refund(s2, refundId), s1);
    // /v1/refund cached the webhook's fingerprint: the identical webhook is answered without the engine.
    const reversals = calls.reverse;
    expect((await gw.send(refund(s1, refundId))).json()).toMatchObject({ status: 'duplicate', pointsReversed: 0 });
    expect(calls.reverse).toBe(reversals);

    const fresh = await restarted();
    try {
      await expectReused(fresh, { ...refund(s2, refundId), eventId: unique('EV') }, s1);
      expect((await fresh.send({ ...refund(s1, refundId), eventId: unique('EV') })).json()).toMatchObject({ status: 'duplicate' });
    } finally {
      await fresh.close();
    }
  });
});
