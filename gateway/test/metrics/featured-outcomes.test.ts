import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { featuredAudit } from '../../src/featured/featured-audit.js';
import type { FeaturedResult } from '../../src/featured/featured-types.js';
import { errorHandlingPlugin } from '../../src/http/error-handling.js';
import { GatewayMetrics } from '../../src/metrics/gateway-metrics.js';
import { registerMetrics } from '../../src/metrics/metrics-routes.js';

const result = (status: FeaturedResult['status'], n: number): FeaturedResult =>
  ({ status, eventType: 'sale.completed', eventId: `e-${n}`, transactionId: `T-${n}` }) as FeaturedResult;

describe('gateway_earn_outcomes_total counts the featured doors too', () => {
  it("each event of a featured delivery is counted by its outcome (a batch's events one by one), as the generic door's are", async () => {
    const app = Fastify();
    await app.register(errorHandlingPlugin);
    const metrics = new GatewayMetrics({ defaultMetrics: false });
    registerMetrics(app, { metrics });
    // As registerFeaturedDoors mounts a door: its own route per adapter slug.
    app.post('/webhooks/shopify', async (request) => {
      request.audit = featuredAudit([result('processed', 1)], 0);
      return { ok: true };
    });
    app.post('/webhooks/clover', async (request) => {
      request.audit = featuredAudit([result('processed', 2), result('processed', 3), result('duplicate', 4)], 1, 1);
      return { ok: true };
    });
    await app.inject({ method: 'POST', url: '/webhooks/shopify', payload: {} });
    await app.inject({ method: 'POST', url: '/webhooks/clover', payload: {} });
    const text = (await metrics.render()).body;
    const count = (outcome: string) =>
      Number(new RegExp(`^gateway_earn_outcomes_total\\{outcome="${outcome}"\\} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
    expect(count('processed')).toBe(3);
    expect(count('duplicate')).toBe(1);
    expect(count('skipped')).toBe(1);
    expect(count('refused')).toBe(1);
    // Never a batch's summary as a label (unbounded).
    expect(text).not.toContain('×');
    await app.close();
  });
});
