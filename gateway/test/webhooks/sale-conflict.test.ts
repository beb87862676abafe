import { randomUUID } from 'node:crypto';
import { testDialects } from '@loyalty-gateway/storage/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryIdempotencyCache } from '../../src/stores/index.js';
import { countingEngine, type EngineCallCounts } from '../../src/testing/counting-engine.js';
import { openGateway, type GatewayFixture } from '../../src/testing/gateway-fixture.js';
import { sale } from '../../src/testing/test-seed.js';

/**
 * docs/decisions.md, "Idempotency conflicts": a transaction id sent again with another sale is
 * still `duplicate` (nothing applied, the ledger decides) but says so in `warning`, from the 24-hour
 * cache and from the ledger alike; a re-serialised identical retry is a plain duplicate.
 */
describe.each(testDialects())('a transaction id reused for another sale ($name)', ({ name }) => {
  let gw: GatewayFixture;
  let calls: EngineCallCounts;
  beforeAll(async () => {
    gw = await openGateway({
      dialect: name,
      wrapEngine: (engine) => {
        const counted = countingEngine(engine);
        calls = counted.calls;
        return counted.engine;
      },
    });
  });
  afterAll(() => gw.close());

  const CONFLICT =
    /^Transaction (\S+) was already received at (\S+) with another total, currency, customer or items; this sale was not applied\. Give every sale its own transaction id\.$/;

  it('another total: duplicate with a warning naming the first sale, answered from the cache; nothing applied', async () => {
    const first = sale({ total: 20 });
    const before = await gw.balance('MBR-0001');
    expect((await gw.send(first)).json()).toMatchObject({ status: 'processed', pointsEarned: 20 });
    const earns = calls.earn;
    const other = { ...first, eventId: `${first.eventId}-again`, transaction: { ...first.transaction, total: 35 } };
    const answer = (await gw.send(other)).json();
    expect(answer).toMatchObject({ status: 'duplicate', membershipId: '', pointsEarned: 0, stampsUpdated: [] });
    expect(answer.warning).toMatch(CONFLICT);
    expect(CONFLICT.exec(answer.warning)![1]).toBe(first.transaction.id);
    expect(calls.earn).toBe(earns); // the cache knew the first sale's fingerprint
    expect(await gw.balance('MBR-0001')).toBe(before + 20);
  });

  it('from the ledger too (an empty cache: another process, or after 24 hours)', async () => {
    const first = sale({ total: 12 });
    await gw.send(first);
    const fresh = await openGateway({ database: gw.database, masterKey: gw.masterKey, idempotency: createMemoryIdempotencyCache() });
    try {
      const other = { ...first, transaction: { ...first.transaction, customer: { type: 'membershipId', value: 'MBR-0002' } } };
      const answer = (await fresh.send(other)).json();
      expect(answer.status).toBe('duplicate');
      expect(answer.warning).toMatch(CONFLICT);
    } finally {
      await fresh.app.close();
    }
  });

  it('an identical retry, re-serialised with another key order and a new event id, is a plain duplicate', async () => {
    const first = sale({ total: 7 });
    await gw.send(first);
    const { transaction, ...rest } = first;
    const reordered = JSON.stringify({
      transaction: {
        items: transaction.items,
        total: 7.0,
        id: transaction.id,
        currency: 'USD',
        channel: 'pos',
        customer: transaction.customer,
      },
      ...rest,
      eventId: randomUUID(),
    });
    expect((await gw.send(reordered)).json()).toEqual({
      status: 'duplicate',
      membershipId: '',
      pointsEarned: 0,
      stampsUpdated: [],
      warning: null,
    });
  });
});
