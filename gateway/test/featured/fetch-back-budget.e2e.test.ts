import { WEBHOOK_FETCH_BACK } from '@loyalty-gateway/core';
import { adapter as square } from '@loyalty-gateway/adapter-square';
import { startRecordedVendorServer, type RecordedVendorServer } from '@loyalty-gateway/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openFeaturedGateway, type FeaturedGateway } from '../../src/testing/featured-gateway.js';
import {
  CLOVER_AUTH_CODE,
  CLOVER_MERCHANT,
  SQUARE_NOTIFICATION_URL,
  SQUARE_SIGNATURE_KEY,
  featuredSeedDocument,
} from '../../src/testing/featured-seed.js';
import { adapterFixture, adapterFixtureJson, vendorSignature } from '../../src/testing/native-fixtures.js';

// The production budget, a real recorded vendor server and real time: these tests assert a bound
// on how long a vendor waits for our answer when its API is slow or rate-limits us.
const BOUND_MS = 6_000;
const XYZ = `/v3/merchants/${CLOVER_MERCHANT}`;
const paidOrder = adapterFixtureJson('clover', 'order-paid.json') as Record<string, unknown>;
const payment = adapterFixture('square', 'payment-updated-completed.json');
const SQUARE_ORDER = '/v2/orders/03O3USaPaAaFnI6kkwB1JxGgBsUZY';

describe('the fetch-back budget of a webhook request', () => {
  let api: RecordedVendorServer;
  let gw: FeaturedGateway;
  beforeAll(async () => {
    api = await startRecordedVendorServer();
    gw = await openFeaturedGateway({ seedDocument: featuredSeedDocument({ squareApi: api.baseUrl, cloverApi: api.baseUrl }) });
  });
  afterAll(async () => {
    await gw.close();
    await api.close();
  });

  const timed = async <T>(work: () => Promise<T>) => {
    const started = Date.now();
    const value = await work();
    return { value, elapsed: Date.now() - started };
  };

  it("Square's order fetch answered 429 Retry-After: 20 → 503 vendor_api_unavailable at once, not after 40 s", async () => {
    api.script(SQUARE_ORDER, { status: 429, headers: { 'retry-after': '20' }, body: { errors: [{ code: 'RATE_LIMITED' }] } });
    const { value: response, elapsed } = await timed(() =>
      gw.app.inject({
        method: 'POST',
        url: '/webhooks/square',
        payload: payment,
        headers: {
          'content-type': 'application/json',
          ...vendorSignature(square.defaultAuth, SQUARE_SIGNATURE_KEY, SQUARE_NOTIFICATION_URL, payment),
        },
      }),
    );
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({ code: 'vendor_api_unavailable' });
    expect(elapsed).toBeLessThan(BOUND_MS);
    expect(api.hits(SQUARE_ORDER)).toBe(1); // the Retry-After ends past the budget: not waited for, not retried early
  });

  it('a Clover batch whose orders all answer 503 Retry-After: 20, or hang, is answered within the budget', async () => {
    const ids = ['SLOW503AAAAA1', 'SLOW503AAAAA2', 'SLOW503AAAAA3', 'HANGINGAAAAA4'];
    for (const id of ids.slice(0, 3)) {
      api.route(`${XYZ}/orders/${id}`, { status: 503, headers: { 'retry-after': '20' }, body: { message: 'Service Unavailable' } });
    }
    api.route(`${XYZ}/orders/HANGINGAAAAA4`, { body: { ...paidOrder, id: 'HANGINGAAAAA4' }, delayMs: 30_000 });
    const body = Buffer.from(
      JSON.stringify({
        appId: 'DRKVJT2ZRRRSC',
        merchants: { [CLOVER_MERCHANT]: ids.map((id, n) => ({ objectId: `O:${id}`, type: 'UPDATE', ts: 1_700_000_000_000 + n })) },
      }),
    );
    const { value: response, elapsed } = await timed(() =>
      gw.app.inject({
        method: 'POST',
        url: '/webhooks/clover',
        payload: body,
        headers: { 'content-type': 'application/json', 'x-clover-auth': CLOVER_AUTH_CODE },
      }),
    );
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({ code: 'vendor_api_unavailable' });
    expect(elapsed).toBeLessThan(BOUND_MS);
    expect(elapsed).toBeLessThan(WEBHOOK_FETCH_BACK.budgetMs + 1_500);
  });

  it('a batch of one merchant whose orders each fetch in 0.9 s earns: each unit has a budget of its own (a shared one would fail unit 5 on every redelivery, 503 at the same point)', async () => {
    const ids = ['SLOWOKAAAAAA1', 'SLOWOKAAAAAA2', 'SLOWOKAAAAAA3', 'SLOWOKAAAAAA4', 'SLOWOKAAAAAA5'];
    for (const id of ids) api.route(`${XYZ}/orders/${id}`, { body: { ...paidOrder, id }, delayMs: 900 });
    const body = Buffer.from(
      JSON.stringify({
        appId: 'DRKVJT2ZRRRSC',
        merchants: { [CLOVER_MERCHANT]: ids.map((id, n) => ({ objectId: `O:${id}`, type: 'UPDATE', ts: 1_700_000_100_000 + n })) },
      }),
    );
    const { value: response, elapsed } = await timed(() =>
      gw.app.inject({
        method: 'POST',
        url: '/webhooks/clover',
        payload: body,
        headers: { 'content-type': 'application/json', 'x-clover-auth': CLOVER_AUTH_CODE },
      }),
    );
    expect(elapsed).toBeGreaterThan(WEBHOOK_FETCH_BACK.budgetMs); // together longer than one budget…
    expect(response.statusCode).toBe(200); // …but each unit within its own
    expect(response.json().results.map((r: { transactionId: string; status: string }) => [r.transactionId, r.status])).toEqual(
      ids.map((id) => [id, 'processed']),
    );
  }, 15_000);

  it("once the vendor API failed for one unit, the request's later units are not fetched: the answer stays within one budget", async () => {
    const ids = ['DOWNAAAAAAAA1', 'DOWNAAAAAAAA2', 'DOWNAAAAAAAA3'];
    for (const id of ids) api.route(`${XYZ}/orders/${id}`, { body: { ...paidOrder, id }, delayMs: 30_000 });
    const body = Buffer.from(
      JSON.stringify({
        appId: 'DRKVJT2ZRRRSC',
        merchants: { [CLOVER_MERCHANT]: ids.map((id, n) => ({ objectId: `O:${id}`, type: 'UPDATE', ts: 1_700_000_200_000 + n })) },
      }),
    );
    const { value: response, elapsed } = await timed(() =>
      gw.app.inject({
        method: 'POST',
        url: '/webhooks/clover',
        payload: body,
        headers: { 'content-type': 'application/json', 'x-clover-auth': CLOVER_AUTH_CODE },
      }),
    );
    expect(response.statusCode).toBe(503);
    expect(elapsed).toBeLessThan(WEBHOOK_FETCH_BACK.budgetMs + 1_500);
    expect(api.hits(`${XYZ}/orders/DOWNAAAAAAAA3`)).toBe(0);
  }, 15_000);

  it('within the budget a transient 503 is retried once and the sale earns', async () => {
    api.route(`${XYZ}/orders/RETRYONCEAAA5`, { body: { ...paidOrder, id: 'RETRYONCEAAA5' } });
    api.script(`${XYZ}/orders/RETRYONCEAAA5`, { status: 503, body: { message: 'Service Unavailable' } });
    const body = Buffer.from(
      JSON.stringify({
        appId: 'DRKVJT2ZRRRSC',
        merchants: { [CLOVER_MERCHANT]: [{ objectId: 'O:RETRYONCEAAA5', type: 'UPDATE', ts: 1 }] },
      }),
    );
    const response = await gw.app.inject({
      method: 'POST',
      url: '/webhooks/clover',
      payload: body,
      headers: { 'content-type': 'application/json', 'x-clover-auth': CLOVER_AUTH_CODE },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().results[0]).toMatchObject({ transactionId: 'RETRYONCEAAA5', status: 'processed' });
  });
});
