import { randomBytes } from 'node:crypto';
import { adapter as square } from '@loyalty-gateway/adapter-square';
import { startTracing, type RunningTracing } from '@loyalty-gateway/core';
import { startRecordedVendorServer, type RecordedVendorServer } from '@loyalty-gateway/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_TOKEN, CLOVER_MERCHANT, openProcess, seed, sharedDatabase } from '../../src/testing/catalog-world.js';
import { startCloverItemsServer } from '../../src/testing/clover-items-server.js';
import { openFeaturedGateway } from '../../src/testing/featured-gateway.js';
import { featuredSeedDocument, SQUARE_NOTIFICATION_URL, SQUARE_SIGNATURE_KEY } from '../../src/testing/featured-seed.js';
import { adapterFixture, adapterFixtureJson, vendorSignature } from '../../src/testing/native-fixtures.js';
import { startOtlpReceiver, type ReceivedSpan } from '../../src/testing/otlp-receiver.js';

/**
 * Vendor API calls in traces, in this process (tracing started here, as startGateway does, before
 * any Fastify instance): a featured door's fetch-back is a client span of the request's handler,
 * and a catalog pull is a trace of its own whose page reads are its client spans — their URLs
 * without the query, never the vendor's credentials.
 */
const ORDER_ID = '03O3USaPaAaFnI6kkwB1JxGgBsUZY';

let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;
let tracing: RunningTracing;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  // The SDK reads the standard variables from the process environment.
  Object.assign(process.env, { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_BSP_SCHEDULE_DELAY: '100' });
  tracing = (await startTracing(process.env, { serviceName: 'loyalty-gateway' }))!;
});
afterAll(async () => {
  await tracing?.shutdown();
  receiver?.server.close();
});

async function spansOf(match: (span: ReceivedSpan) => boolean): Promise<ReceivedSpan[]> {
  for (let i = 0; i < 100; i++) {
    const root = receiver.spans.find(match);
    const children = root ? receiver.spans.filter((s) => s.traceId === root.traceId && s.scope.includes('undici')) : [];
    if (root && children.length > 0) return receiver.spans.filter((s) => s.traceId === root.traceId);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no such trace among ${receiver.spans.map((s) => s.name).join(', ')}`);
}

describe('tracing vendor API calls', () => {
  it("a featured door's fetch-back: a client span under the request's handler, the URL without its query", async () => {
    let api: RecordedVendorServer | undefined;
    const gw = await (async () => {
      api = await startRecordedVendorServer();
      api.route(`/v2/orders/${ORDER_ID}`, { body: adapterFixtureJson('square', 'order-retrieve.json') });
      api.route('/v2/customers/JDKYHBWT1D4F8MFH63DBMEN8Y4', { body: adapterFixtureJson('square', 'customer-retrieve.json') });
      return openFeaturedGateway({ seedDocument: featuredSeedDocument({ squareApi: api.baseUrl }) });
    })();
    try {
      const payment = adapterFixture('square', 'payment-updated-completed.json');
      const response = await gw.app.inject({
        method: 'POST',
        url: '/webhooks/square',
        headers: {
          'content-type': 'application/json',
          ...vendorSignature(square.defaultAuth, SQUARE_SIGNATURE_KEY, SQUARE_NOTIFICATION_URL, payment),
        },
        payload: payment,
      });
      expect(response.statusCode).toBe(200);
      const spans = await spansOf((s) => s.name === 'POST /webhooks/square' && !s.parentSpanId);
      const byId = new Map(spans.map((s) => [s.spanId, s]));
      const fetches = spans.filter((s) => s.scope.includes('undici'));
      expect(fetches.map((s) => s.attributes['url.path'])).toContain(`/v2/orders/${ORDER_ID}`);
      for (const fetch of fetches) {
        expect(fetch.kind).toBe(3); // CLIENT
        expect(byId.get(fetch.parentSpanId!)?.name).toBe('handler /webhooks/square');
        expect(String(fetch.attributes['url.full'])).not.toContain('?');
      }
      expect(JSON.stringify(spans)).not.toContain('EAAA-fake-token');
    } finally {
      await gw.close();
      await api?.close();
    }
  });

  it('a catalog pull: a trace of its own (vendor, connection, outcome), each page read a client span, no credentials', async () => {
    const server = await startCloverItemsServer(CLOVER_MERCHANT, 150);
    const shared = await sharedDatabase('sqlite');
    const world = await openProcess(shared.open(), randomBytes(32));
    try {
      await seed(world, server.baseUrl);
      const connectionId = (await world.store.listConnections({ vendor: 'clover' }))[0]!.id;
      const started = await world.runner.start('clover', connectionId, 'manual');
      expect(await started!.done).toMatchObject({ status: 'succeeded' });
      const spans = await spansOf((s) => s.name === 'catalog pull');
      const pull = spans.find((s) => s.name === 'catalog pull')!;
      expect(pull.parentSpanId).toBeUndefined();
      expect(pull.attributes).toMatchObject({
        'loyalty.vendor': 'clover',
        'loyalty.connection_id': connectionId,
        'loyalty.trigger': 'manual',
        'loyalty.outcome': 'succeeded',
      });
      const pages = spans.filter((s) => s.scope.includes('undici'));
      expect(pages).toHaveLength(2); // 150 items, 100 a page
      for (const page of pages) {
        expect(page.parentSpanId).toBe(pull.spanId);
        expect(page.attributes['url.path']).toBe(`/v3/merchants/${CLOVER_MERCHANT}/items`);
        expect(String(page.attributes['url.full'])).not.toContain('?');
      }
      expect(JSON.stringify(spans)).not.toContain(ACCESS_TOKEN);
    } finally {
      await world.runner.stop();
      await shared.close();
      await server.close();
    }
  });
});
