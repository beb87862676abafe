import { parseEnvelope, type Connection, type LoyaltyEngine } from '@loyalty-gateway/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryIdempotencyCache } from '../../src/stores/index.js';
import { openGateway, type GatewayFixture } from '../../src/testing/gateway-fixture.js';
import { STORE, VENDOR, sale } from '../../src/testing/test-seed.js';
import { createWebhookPipeline, type SaleConflict } from '../../src/webhooks/webhook-pipeline.js';

/**
 * The sale's fingerprint is computed once per earn, by the engine (it stores it with the sale): the
 * pipeline remembers the one the engine answers for the transaction id, computes one itself only for
 * a repeat the cache knows or an engine that does not send it, and never answers it to the vendor.
 */
describe('the sale fingerprint the idempotency cache remembers', () => {
  let gw: GatewayFixture;
  let connection: Connection;
  beforeAll(async () => {
    gw = await openGateway();
    connection = (await gw.store.find(VENDOR, STORE))!;
  });
  afterAll(() => gw.close());

  /** A pipeline on its own cache, over `engine` (gw.engine by default), counting the earns that reach it. */
  function door(engine: LoyaltyEngine = gw.engine) {
    const conflicts: SaleConflict[] = [];
    const earns = { count: 0 };
    const counted: LoyaltyEngine = Object.assign(Object.create(engine) as LoyaltyEngine, {
      earn: (...args: Parameters<LoyaltyEngine['earn']>) => {
        earns.count += 1;
        return engine.earn(...args);
      },
    });
    const pipeline = createWebhookPipeline({
      engine: counted,
      cache: createMemoryIdempotencyCache(),
      onCacheError: () => {},
      onConflict: (c) => conflicts.push(c),
    });
    return { pipeline, conflicts, earns };
  }

  it('the vendor never sees it, and the cache answers an identical repeat with it and a changed one as a conflict', async () => {
    const first = sale({ total: 12 });
    const command = parseEnvelope(first);
    const { pipeline, conflicts, earns } = door();
    const answer = await pipeline(connection, command);
    expect(answer).toMatchObject({ status: 'processed', pointsEarned: 12 });
    expect(answer).not.toHaveProperty('fingerprint');
    expect(await pipeline(connection, parseEnvelope({ ...first, eventId: `${first.eventId}:retry` }))).toMatchObject({
      status: 'duplicate',
    });
    expect(earns.count).toBe(1);
    const changed = await pipeline(
      connection,
      parseEnvelope({ ...first, eventId: `${first.eventId}:other`, transaction: { ...first.transaction, total: 13 } }),
    );
    expect(changed.warning).toMatch(/^Transaction .* was already received at/);
    expect(conflicts.map((c) => c.source)).toEqual(['cache']);
    expect(earns.count).toBe(1);
  });

  it('remembers what the engine answered, not a fingerprint of its own', async () => {
    // An engine answering another fingerprint than the gateway would compute: an identical repeat is
    // then told apart by the cache, which shows whose fingerprint it holds.
    const other: LoyaltyEngine = Object.assign(Object.create(gw.engine) as LoyaltyEngine, {
      earn: async (...args: Parameters<LoyaltyEngine['earn']>) => ({ ...(await gw.engine.earn(...args)), fingerprint: 'f'.repeat(32) }),
    });
    const first = sale({ total: 7 });
    const { pipeline, conflicts } = door(other);
    expect(await pipeline(connection, parseEnvelope(first))).toMatchObject({ status: 'processed' });
    await pipeline(connection, parseEnvelope({ ...first, eventId: `${first.eventId}:retry` }));
    expect(conflicts.map((c) => c.source)).toEqual(['cache']);
  });

  it('computes it itself when the engine does not send it', async () => {
    const silent: LoyaltyEngine = Object.assign(Object.create(gw.engine) as LoyaltyEngine, {
      earn: async (...args: Parameters<LoyaltyEngine['earn']>) => {
        const { fingerprint: _dropped, ...outcome } = await gw.engine.earn(...args);
        return outcome;
      },
    });
    const first = sale({ total: 9 });
    const { pipeline, conflicts, earns } = door(silent);
    expect(await pipeline(connection, parseEnvelope(first))).toMatchObject({ status: 'processed', pointsEarned: 9 });
    expect(await pipeline(connection, parseEnvelope({ ...first, eventId: `${first.eventId}:retry` }))).toMatchObject({
      status: 'duplicate',
    });
    expect(earns.count).toBe(1);
    expect(conflicts).toEqual([]);
  });
});
