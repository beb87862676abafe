import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { featuredAudit } from '../../src/featured/featured-audit.js';
import type { FeaturedResult } from '../../src/featured/featured-types.js';
import { errorHandlingPlugin } from '../../src/http/error-handling.js';
import { TOKENS, closeContainer, open } from '../../src/composition/index.js';
import { createTestContainer } from '../../src/testing/test-container.js';
import { headersFor } from '../../src/testing/gateway-fixture.js';
import { sale, testSeedDocument } from '../../src/testing/test-seed.js';
import { tallyEarned } from '../../src/webhooks/earned-tally.js';
import { NOTHING_EARNED_REASONS } from '../../src/webhooks/nothing-earned.js';
import { GatewayMetrics } from '../../src/metrics/gateway-metrics.js';
import { registerMetrics } from '../../src/metrics/metrics-routes.js';

/** Every sample of gateway_earn_outcomes_total, as `labels value` lines. */
const outcomes = async (metrics: GatewayMetrics) =>
  (await metrics.render()).body
    .split('\n')
    .filter((line) => line.startsWith('gateway_earn_outcomes_total{'))
    .map((line) => line.slice('gateway_earn_outcomes_total'.length))
    .sort();

describe('gateway_earn_outcomes_total tells a processed sale that earned nothing, by a reason of a fixed set', () => {
  const metrics = new GatewayMetrics({ defaultMetrics: false });
  const c = createTestContainer({ database: 'sqlite', seedDocument: testSeedDocument(), app: { metrics } });
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await open(c, TOKENS.app);
  });
  afterAll(() => closeContainer(c));

  it('the generic door: earned, walk-in and unknown customer apart, a processed outcome summed over them as before', async () => {
    const send = (body: unknown) => {
      const raw = JSON.stringify(body);
      return app.inject({ method: 'POST', url: '/webhooks/generic', headers: headersFor(raw), payload: raw });
    };
    await send(sale({ total: 12.5 }));
    await send(sale({ total: 12.5, customer: null }));
    await send(sale({ total: 12.5, customer: null }));
    await send(sale({ total: 12.5, customer: { type: 'membershipId', value: 'MBR-NOPE' } }));
    expect(await outcomes(metrics)).toEqual([
      '{outcome="processed",reason="unknown_customer"} 1',
      '{outcome="processed",reason="walk_in"} 2',
      '{outcome="processed"} 1',
    ]);
  });

  it('a featured batch: each event by its outcome, its sales that earned nothing by their reason; a batch that failed by its error only', async () => {
    const local = new GatewayMetrics({ defaultMetrics: false });
    const door = Fastify();
    await door.register(errorHandlingPlugin);
    registerMetrics(door, { metrics: local });
    const result = (status: FeaturedResult['status'], n: number) =>
      ({
        status,
        eventType: 'sale.completed',
        eventId: `e-${n}`,
        transactionId: `T-${n}`,
        pointsEarned: 0,
        stampsUpdated: [],
      }) as unknown as FeaturedResult;
    const earned = tallyEarned([
      { eventType: 'sale.completed', pointsEarned: 5, pointsReversed: null, stamps: [], nothingEarned: null },
      { eventType: 'sale.completed', pointsEarned: 0, pointsReversed: null, stamps: [], nothingEarned: 'below_threshold' },
      { eventType: 'sale.completed', pointsEarned: 0, pointsReversed: null, stamps: [], nothingEarned: 'walk_in' },
    ]);
    door.post('/webhooks/clover', async (request) => {
      request.audit = {
        ...featuredAudit([result('processed', 1), result('processed', 2), result('processed', 3), result('duplicate', 4)], 0),
        earned,
      };
      return { ok: true };
    });
    door.post('/webhooks/square', async (request) => {
      request.audit = { ...featuredAudit([result('processed', 1), result('processed', 2)], 0), earned };
      throw new Error('a later unit failed');
    });
    await door.inject({ method: 'POST', url: '/webhooks/clover', payload: {} });
    await door.inject({ method: 'POST', url: '/webhooks/square', payload: {} });
    expect(await outcomes(local)).toEqual([
      '{outcome="duplicate"} 1',
      '{outcome="internal_error"} 1',
      '{outcome="processed",reason="below_threshold"} 1',
      '{outcome="processed",reason="walk_in"} 1',
      '{outcome="processed"} 1',
    ]);
    await door.close();
  });

  it('the reasons are a fixed small set (bounded labels)', () => {
    expect(NOTHING_EARNED_REASONS).toEqual(['walk_in', 'unknown_customer', 'below_threshold', 'other_currency', 'refunded_first']);
  });
});
