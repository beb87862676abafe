import { parseEnvelope, type Connection } from '@loyalty-gateway/core';
import { testDialects } from '@loyalty-gateway/storage/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryIdempotencyCache } from '../../src/stores/index.js';
import { openGateway, type GatewayFixture } from '../../src/testing/gateway-fixture.js';
import { STORE, VENDOR, sale } from '../../src/testing/test-seed.js';
import { createWebhookPipeline, type WebhookPipeline } from '../../src/webhooks/webhook-pipeline.js';

/**
 * docs/decisions.md, "Order edited after payment": a featured door whose adapter declares that paid
 * orders grow (`raise`) earns on the added money once, from the 24-hour cache's knowledge and from
 * the ledger's alike; without it (the generic door) a larger total stays an idempotency conflict.
 */
describe.each(testDialects())('a paid order that grew ($name)', ({ name }) => {
  let gw: GatewayFixture;
  let connection: Connection;
  const conflicts: string[] = [];
  const pipeline = (): WebhookPipeline =>
    createWebhookPipeline({
      engine: gw.engine,
      cache: createMemoryIdempotencyCache(),
      onCacheError: () => {},
      onConflict: (c) => conflicts.push(c.transactionId),
    });
  beforeAll(async () => {
    gw = await openGateway({ dialect: name });
    connection = (await gw.store.find(VENDOR, STORE))!;
  });
  afterAll(() => gw.close());

  const grown = (first: ReturnType<typeof sale>, total: number) =>
    parseEnvelope({ ...first, eventId: `${first.eventId}:grown:${total}`, transaction: { ...first.transaction, total } });

  it('earns on the added money once with `raise`, whether the cache or the ledger knows the first sale', async () => {
    const first = sale({ total: 20 });
    const featured = pipeline();
    const before = await gw.balance('MBR-0001');
    expect(await featured(connection, parseEnvelope(first), { raise: true })).toMatchObject({ status: 'processed', pointsEarned: 20 });
    // The cache knows the first fingerprint: the grown order still reaches the ledger and earns 15 more.
    expect(await featured(connection, grown(first, 35), { raise: true })).toEqual({
      status: 'processed',
      membershipId: 'MBR-0001',
      pointsEarned: 15,
      stampsUpdated: [],
      warning: null,
    });
    expect(await featured(connection, grown(first, 35), { raise: true })).toMatchObject({ status: 'duplicate', pointsEarned: 0 });
    // Another process (an empty cache), the ledger alone: the same grown state, and a larger one.
    const other = pipeline();
    expect(await other(connection, grown(first, 35), { raise: true })).toMatchObject({ status: 'duplicate', pointsEarned: 0 });
    expect(await other(connection, grown(first, 50), { raise: true })).toMatchObject({ status: 'processed', pointsEarned: 15 });
    expect(await gw.balance('MBR-0001')).toBe(before + 50);
    expect(conflicts).toEqual([]);
  });

  it('a smaller total is still a conflict; without `raise` a larger one is too, and nothing is applied', async () => {
    const first = sale({ total: 20 });
    const door = pipeline();
    const before = await gw.balance('MBR-0001');
    await door(connection, parseEnvelope(first));
    const smaller = await door(connection, grown(first, 10), { raise: true });
    expect(smaller).toMatchObject({ status: 'duplicate', pointsEarned: 0 });
    expect(smaller.warning).toMatch(/^Transaction .* was already received at/);
    expect((await door(connection, grown(first, 30))).warning).toMatch(
      /^Transaction .* was already received at .*Give every sale its own transaction id\.$/,
    );
    // From a featured door (a vendor's own order id, never reused) the advice speaks of the order, not of new ids.
    expect((await door(connection, grown(first, 40), { featured: true })).warning).toMatch(
      /^Transaction .* was already received at .*The vendor now describes this order differently \(edited after payment\?\); the first description stands\.$/,
    );
    expect(await gw.balance('MBR-0001')).toBe(before + 20);
    expect(conflicts).toEqual([first.transaction.id, first.transaction.id, first.transaction.id]);
    conflicts.length = 0;
  });
});
