import { testDialects } from '@loyalty-gateway/storage/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openOperatorApp, type OperatorApp } from '../../src/testing/open-operator-app.js';
import { headersFor, nowSeconds, openGateway, type SendOptions } from '../../src/testing/gateway-fixture.js';
import { ODD_STORE, OTHER_SECRET, sale, SECRET, STORE } from '../../src/testing/test-seed.js';

type Entry = Record<string, any>;
type Page = { deliveries: Entry[]; nextCursor: string | null };

/** The two stores of one vendor in the test seed, each with its own secret. */
const A = { store: STORE, secret: SECRET };
const B = { store: ODD_STORE, secret: OTHER_SECRET };

describe.each(testDialects())('GET /v1/deliveries on a real socket ($name)', ({ name }) => {
  let t: OperatorApp;
  let address: string;
  beforeEach(async () => {
    t = await openOperatorApp({ dialect: name, journal: true });
    address = await t.app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterEach(async () => {
    await t.close();
  });

  const post = async (body: unknown, as: typeof A, options: SendOptions = {}) => {
    const raw = JSON.stringify(body);
    const response = await fetch(`${address}/webhooks/generic`, {
      method: 'POST',
      headers: headersFor(raw, { store: as.store, secret: as.secret, ...options }),
      body: raw,
    });
    return { status: response.status, requestId: response.headers.get('x-request-id')! };
  };
  /** A signed GET: the v1 signature over `timestamp.` and the empty body. */
  const log = async (as: typeof A, query = '', options: SendOptions = {}) => {
    const response = await fetch(`${address}/v1/deliveries${query}`, {
      headers: headersFor('', { store: as.store, secret: as.secret, contentType: null, ...options }),
    });
    return { status: response.status, body: (await response.json()) as Page & Record<string, any> };
  };
  const saleOf = (store: string, id: string, extra: Record<string, unknown> = {}) => {
    const body = sale({ id, store, total: 12.5 });
    return { ...body, transaction: { ...body.transaction, ...extra } };
  };

  it("shows a store its own deliveries only: never another store's, whatever the query asks", async () => {
    const aIds = [
      (await post(saleOf(STORE, 'A-1'), A)).requestId,
      (await post(saleOf(STORE, 'A-2', { tip: 1 }), A)).requestId,
      (await post(saleOf(STORE, 'A-3'), A, { secret: OTHER_SECRET })).requestId, // a refusal naming store A
    ];
    const bIds = [(await post(saleOf(ODD_STORE, 'B-1'), B)).requestId, (await post(saleOf(ODD_STORE, 'A-1'), B)).requestId];

    const forA = await log(A);
    expect(forA.status).toBe(200);
    expect(forA.body.deliveries.map((d) => d.requestId)).toEqual([...aIds].reverse());
    const forB = await log(B);
    expect(forB.body.deliveries.map((d) => d.requestId)).toEqual([...bIds].reverse());
    // B's sale under a transaction id A also used: A finds its own only.
    expect((await log(A, '?transactionId=A-1')).body.deliveries.map((d) => d.requestId)).toEqual([aIds[0]]);
    expect((await log(A, '?transactionId=B-1')).body.deliveries).toEqual([]);
    // No parameter names another connection: the connection is the one the signature proved.
    for (const query of ['?connectionId=x', '?store=Main%20St%2FUnit%207', '?vendor=acme-pos']) {
      const refused = await log(A, query);
      expect(refused.status).toBe(422);
      expect(refused.body.code).toBe('validation_failed');
    }
  });

  it('says what each request was and how it ended; never bodies, headers, addresses or internal causes', async () => {
    await post(saleOf(STORE, 'L-1'), A);
    await post(saleOf(STORE, 'L-2', { tip: 1 }), A);
    const [refused, earned] = (await log(A)).body.deliveries as [Entry, Entry];
    expect(earned).toEqual({
      requestId: expect.any(String),
      receivedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      route: '/webhooks/generic',
      eventType: 'sale.completed',
      eventId: 'L-1:completed',
      transactionId: 'L-1',
      refundId: null,
      status: 200,
      code: null,
      outcome: 'processed',
      pointsEarned: 12,
      pointsReversed: null,
      warning: null,
      fields: null,
      replay: false,
    });
    expect(refused).toMatchObject({
      status: 422,
      code: 'validation_failed',
      outcome: null,
      fields: [{ path: 'transaction.tip', message: expect.any(String) }],
    });
    expect(Object.keys(refused).sort()).toEqual(Object.keys(earned).sort());
  });

  it('filters by status, transaction and time, pages with a cursor, and reading it writes nothing to it', async () => {
    for (let i = 1; i <= 5; i++) await post(saleOf(STORE, `P-${i}`), A);
    await post(saleOf(STORE, 'P-bad', { tip: 1 }), A);
    const first = await log(A, '?limit=2');
    // The refused one was answered before its body was read as an envelope: no transaction id, its status says it.
    expect(first.body.deliveries.map((d) => d.transactionId ?? d.status)).toEqual([422, 'P-5']);
    const second = await log(A, `?limit=2&cursor=${first.body.nextCursor}`);
    expect(second.body.deliveries.map((d) => d.transactionId)).toEqual(['P-4', 'P-3']);
    expect((await log(A, '?status=422')).body.deliveries.map((d) => d.code)).toEqual(['validation_failed']);
    const ok = await log(A, '?status=200&limit=3');
    expect(ok.body.deliveries.map((d) => d.transactionId)).toEqual(['P-5', 'P-4', 'P-3']);
    expect((await log(A, `?status=200&limit=3&cursor=${ok.body.nextCursor}`)).body.deliveries.map((d) => d.transactionId)).toEqual([
      'P-2',
      'P-1',
    ]);
    const later = new Date(Date.now() + 60_000).toISOString();
    expect((await log(A, `?since=${encodeURIComponent(later)}`)).body.deliveries).toEqual([]);
    expect((await log(A, `?until=${encodeURIComponent(later)}&limit=100`)).body.deliveries).toHaveLength(6);
    // Six deliveries, however often the log was read.
    await t.journal!.flush();
    expect((await t.admin('GET', '/admin/deliveries?limit=100')).json().deliveries).toHaveLength(6);
    for (const query of ['?limit=0', '?limit=101', '?status=abc', '?since=yesterday']) expect((await log(A, query)).status).toBe(422);
  });

  it('is signed like every request: over the timestamp and the empty body', async () => {
    expect((await log(A, '', { signature: null })).body.code).toBe('bad_signature');
    expect((await log(A, '', { secret: OTHER_SECRET })).body.code).toBe('bad_signature');
    expect((await log(A, '', { timestamp: nowSeconds() - 400 })).body.code).toBe('stale_timestamp');
    expect((await log(A, '', { store: 'store-nobody' })).body.code).toBe('unknown_connection');
    // A signature over some other body than the empty one is not this request's.
    const overBody = headersFor('{}', { contentType: null })['x-service-signature']!;
    const refused = await log(A, '', { signature: overBody });
    expect([refused.status, refused.body.code]).toEqual([401, 'bad_signature']);
  });
});

describe('without the delivery journal', () => {
  it('answers 404 endpoint_not_enabled, before looking at credentials', async () => {
    const gw = await openGateway();
    try {
      const response = await gw.app.inject({ method: 'GET', url: '/v1/deliveries' });
      expect([response.statusCode, response.json().code]).toEqual([404, 'endpoint_not_enabled']);
    } finally {
      await gw.close();
    }
  });
});
