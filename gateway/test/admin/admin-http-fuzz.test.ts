import { createHmac } from 'node:crypto';
import { ODD_JSON_VALUES, startRecordedVendorServer, type RecordedVendorServer } from '@loyalty-gateway/core/testing';
import { testDialects } from '@loyalty-gateway/storage/testing';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedWithWooCommerce } from '../../src/testing/featured-seed.js';
import {
  hostileShot,
  rawRequestBytes,
  type BaseRequest,
  type HostileBody,
  type RawHeader,
  type RawShot,
} from '../../src/testing/hostile-http.js';
import { adapterFixture } from '../../src/testing/native-fixtures.js';
import { RawHttpConnection } from '../../src/testing/raw-http-connection.js';
import { answerProblems, runRawShots } from '../../src/testing/run-raw-shots.js';
import { ADMIN_TOKEN, openOperatorApp, type OperatorApp } from '../../src/testing/open-operator-app.js';

/** Generated requests per dialect (FUZZ_RUNS); FUZZ_SEED=N explores others (the fixed seed keeps CI repeatable). */
const RUNS = Number(process.env.FUZZ_RUNS ?? 400);
const SEED = Number(process.env.FUZZ_SEED ?? 20261128);
const WOO_SITE = 'https://wc-admin-fuzz.example.com/';
const WOO_SECRET = 'wc-store-webhook-secret-admin-fuzz';

/** What the path parameters are, on this gateway: its vendors, connections, merchant and journal entries. */
interface Known {
  slugs: string[];
  connections: string[];
  merchants: string[];
  deliveries: string[];
}

/** Every admin route (admin/*-routes.ts) with a valid body for its writes. */
const ROUTES: Array<{ method: string; path: string; body?: unknown; query?: string[] }> = [
  { method: 'GET', path: '/admin/vendors' },
  { method: 'POST', path: '/admin/vendors', body: { slug: 'acme-fuzz', name: 'Acme Fuzz' } },
  { method: 'PATCH', path: '/admin/vendors/:slug', body: { name: 'Renamed' } },
  { method: 'POST', path: '/admin/vendors/:slug/promote' },
  { method: 'POST', path: '/admin/vendors/:slug/demote' },
  { method: 'PUT', path: '/admin/vendors/:slug/settings', body: { authCode: 'clover-auth-code-2', apiBaseUrl: 'https://api.clover.com' } },
  { method: 'GET', path: '/admin/vendors/:slug/notes' },
  { method: 'GET', path: '/admin/connections', query: ['vendor', 'merchantId'] },
  {
    method: 'POST',
    path: '/admin/connections',
    body: { vendor: 'clover', storeId: 'QWEVJT2ABCRSC', merchantId: 'm-bean', outletId: 'o-till', credentials: { accessToken: 'tok' } },
  },
  { method: 'GET', path: '/admin/connections/:connection/subscriptions' },
  { method: 'POST', path: '/admin/connections/:connection/subscriptions' },
  { method: 'POST', path: '/admin/connections/:connection/rotate', body: { overlapSeconds: 3600 } },
  { method: 'POST', path: '/admin/connections/:connection/activate' },
  { method: 'POST', path: '/admin/connections/:connection/deactivate' },
  { method: 'PUT', path: '/admin/connections/:connection/credentials', body: { consumerKey: 'ck_2', consumerSecret: 'cs_2' } },
  { method: 'POST', path: '/admin/connections/:connection/reconcile' },
  { method: 'GET', path: '/admin/catalog-runs', query: ['vendor', 'connectionId', 'limit'] },
  { method: 'POST', path: '/admin/catalog-runs', body: { vendor: 'woocommerce', connectionId: ':connection' } },
  { method: 'GET', path: '/admin/reconcile-runs', query: ['vendor', 'connectionId', 'limit'] },
  { method: 'GET', path: '/admin/merchants' },
  {
    method: 'POST',
    path: '/admin/merchants',
    body: { id: 'm-fuzz', name: 'Fuzz Coffee', currency: 'USD', defaultCountryCode: '1', earnRate: 1, redemptionRate: 100 },
  },
  { method: 'POST', path: '/admin/merchants/:merchant/outlets', body: { id: 'o-fuzz', name: 'Fuzz outlet' } },
  {
    method: 'GET',
    path: '/admin/deliveries',
    query: ['vendor', 'store', 'connectionId', 'status', 'code', 'since', 'until', 'transactionId', 'requestId', 'limit', 'cursor'],
  },
  { method: 'GET', path: '/admin/deliveries/:delivery' },
  { method: 'POST', path: '/admin/deliveries/:delivery/replay', body: { force: false } },
];

/** Path parameters no id is, written as they go in a path: too long for the router, NUL, a lone surrogate, dot segments, bad escapes, look-alikes. */
const ODD_PARAMS = [
  'nope',
  'a'.repeat(101),
  'a'.repeat(255),
  'a'.repeat(256),
  'b'.repeat(3_000),
  '%41'.repeat(300),
  '%00',
  '%ED%A0%80',
  '..',
  '%2e%2e',
  '%2F',
  'x%2Fy',
  'caf%C3%A9',
  'm%E2%80%90bean',
  '%E2%80%AEnaeb-m',
  '%',
  '%zz',
  '%FF',
  '%20',
  'x%3Fy',
  ';',
  '',
];

const queryValue = fc.oneof(
  fc.constantFrom(...ODD_JSON_VALUES.filter((v): v is string => typeof v === 'string')),
  fc.constantFrom('500', '0', '1000', '1001', '2026-11-28T00:00:00Z', '+275760-09-13T00:00:00.000Z', '-1', 'clover', 'MTIzfGFi'),
  fc.string({ maxLength: 20 }),
);

/** A route with its parameters filled (known ids mostly, odd ones otherwise) and, for a list, a query. */
function adminBase(known: Known): fc.Arbitrary<BaseRequest<null>> {
  const param = (real: string[]) =>
    fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...real) }, { weight: 1, arbitrary: fc.constantFrom(...ODD_PARAMS) });
  return fc
    .record({
      route: fc.constantFrom(...ROUTES),
      slug: param(known.slugs),
      connection: param(known.connections),
      merchant: param(known.merchants),
      delivery: param(known.deliveries),
      query: fc.oneof(
        fc.constant(''),
        fc.dictionary(
          fc.oneof(fc.constantFrom('vendor', 'limit', 'status', 'cursor', 'requestId'), fc.string({ maxLength: 6 })),
          queryValue,
          {
            maxKeys: 3,
          },
        ),
        fc.constantFrom('?limit=%FF', '?a=1&a=2', '?vendor[]=x', '?%zz', `?limit=${'9'.repeat(400)}`, '?&&&', '?since=%00'),
      ),
    })
    .map(({ route, slug, connection, merchant, delivery, query }) => {
      const fill = (text: string) =>
        text.replace(':slug', slug).replace(':connection', connection).replace(':merchant', merchant).replace(':delivery', delivery);
      const search =
        typeof query === 'string' ? query : Object.keys(query).length > 0 ? `?${new URLSearchParams(query as Record<string, string>)}` : '';
      const body = route.body === undefined ? undefined : JSON.parse(fill(JSON.stringify(route.body)));
      return {
        kind: `${route.method} ${route.path}`,
        method: route.method,
        path: `${fill(route.path)}${route.query ? search : ''}`,
        body,
        context: null,
      };
    });
}

type Auth =
  'token' | 'absent' | 'wrong token' | 'lower-case scheme' | 'spaces' | 'basic' | 'non-ASCII' | 'token twice' | 'token in the query';
const auth: fc.Arbitrary<Auth> = fc.oneof(
  { weight: 6, arbitrary: fc.constant<Auth>('token') },
  {
    weight: 3,
    arbitrary: fc.constantFrom<Auth>(
      'absent',
      'wrong token',
      'lower-case scheme',
      'spaces',
      'basic',
      'non-ASCII',
      'token twice',
      'token in the query',
    ),
  },
);

function authorization(a: Auth): RawHeader[] {
  switch (a) {
    case 'token':
      return [['Authorization', `Bearer ${ADMIN_TOKEN}`]];
    case 'absent':
    case 'token in the query':
      return [];
    case 'wrong token':
      return [['Authorization', `Bearer ${ADMIN_TOKEN.slice(0, -1)}x`]];
    case 'lower-case scheme':
      return [['Authorization', `bearer ${ADMIN_TOKEN}`]];
    case 'spaces':
      return [['Authorization', `Bearer  ${ADMIN_TOKEN} extra`]];
    case 'basic':
      return [['Authorization', `Basic ${Buffer.from(`admin:${ADMIN_TOKEN}`).toString('base64')}`]];
    case 'non-ASCII':
      return [['Authorization', Buffer.concat([Buffer.from('Bearer '), Buffer.from(ADMIN_TOKEN), Buffer.from([0xe9, 0xff])])]];
    case 'token twice':
      return [
        ['Authorization', `Bearer ${ADMIN_TOKEN}`],
        ['Authorization', 'Bearer another-token-0123456789abcdef'],
      ];
  }
}

const headers = (base: BaseRequest<null>, body: HostileBody, a: Auth): RawHeader[] => [
  ['Accept', 'application/json'],
  ...authorization(a),
  ...(body.bytes.length > 0 || base.body !== undefined ? [['Content-Type', body.contentType ?? 'application/json'] as RawHeader] : []),
  ...(body.contentEncoding ? [['Content-Encoding', body.contentEncoding] as RawHeader] : []),
];

/**
 * The admin API (docs/operators.md) under generated raw HTTP requests on real sockets (16
 * keep-alive connections, fixed seed), on both dialects: every route, its path parameters the
 * gateway's own ids or odd ones, its writes' valid bodies as sent or made hostile, its lists with
 * arbitrary queries, with the bearer token right for most and wrong, absent or malformed for the
 * rest; headers, request line and framing made hostile as for the doors
 * (featured/featured-http-fuzz.test.ts). Whatever arrives: an answer, on a connection that stays
 * usable or is closed cleanly; never a 5xx; every refusal the Error body with the request's
 * X-Request-ID, a 422 naming its fields. The vendors' APIs it calls (subscriptions, pulls) answer 404
 * here, so those calls are the documented 502 vendor_api_failed.
 */
describe.each(testDialects())('fuzz: the admin API under hostile raw HTTP ($name)', ({ name }) => {
  let t: OperatorApp;
  let vendorApi: RecordedVendorServer;
  let port: number;
  let known: Known;
  beforeAll(async () => {
    // Every vendor API the admin API calls (subscriptions, pulls) on this machine: answered 404, as the vendors do for what they do not have.
    vendorApi = await startRecordedVendorServer();
    t = await openOperatorApp({
      dialect: name,
      journal: true,
      seedDocument: seedWithWooCommerce(WOO_SITE, WOO_SECRET, 'featured', {
        shopifyApi: vendorApi.baseUrl,
        cloverApi: vendorApi.baseUrl,
        squareApi: vendorApi.baseUrl,
      }),
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as { port: number }).port;
    // Deliveries in the journal for the journal's routes: a WooCommerce order earned, and one refused.
    const order = adapterFixture('woocommerce', 'order-727.json');
    const connection = await RawHttpConnection.open(port);
    for (const [requestId, secret] of [
      ['admin-fuzz-earned', WOO_SECRET],
      ['admin-fuzz-refused', 'not-the-secret'],
    ] as const) {
      const sent = await connection.exchange(
        rawRequestBytes({
          method: 'POST',
          target: '/webhooks/woocommerce',
          version: 'HTTP/1.1',
          headers: [
            ['Host', 'loyalty.example.com'],
            ['Content-Type', 'application/json'],
            ['X-Request-ID', requestId],
            ['X-WC-Webhook-Source', WOO_SITE],
            ['X-WC-Webhook-Topic', 'order.updated'],
            ['X-WC-Webhook-Signature', createHmac('sha256', secret).update(order).digest('base64')],
          ],
          body: order,
          framing: { kind: 'length' },
        }),
      );
      expect(sent.answer?.status).toBe(requestId === 'admin-fuzz-earned' ? 200 : 401);
    }
    connection.close();
    let deliveries: Array<{ id: string; requestId: string }> = [];
    for (let i = 0; i < 100 && deliveries.length < 2; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      deliveries = ((await t.admin('GET', '/admin/deliveries')).json() as { deliveries: typeof deliveries }).deliveries;
    }
    known = {
      slugs: ['shopify', 'square', 'clover', 'woocommerce', 'acme-pos'],
      connections: ((await t.admin('GET', '/admin/connections')).json() as { connections: Array<{ id: string }> }).connections.map(
        (c) => c.id,
      ),
      merchants: ['m-bean'],
      deliveries: deliveries.flatMap((d) => [d.id, d.requestId]),
    };
    expect(known.deliveries.length).toBeGreaterThanOrEqual(4);
  });
  afterAll(async () => {
    await t?.close();
    await vendorApi?.close();
  });

  it(`${RUNS} hostile requests to the admin API, with and without its token: an answer on a usable or cleanly closed connection, no 5xx but a vendor call's documented 502, every refusal the Error body`, async () => {
    const shots: RawShot[] = fc.sample(hostileShot({ base: adminBase(known), auth, signed: 'token', headers }), {
      numRuns: RUNS,
      seed: SEED,
    });
    // The vendors' APIs answer 404 here: what the admin API documents for a vendor call that fails is 502 vendor_api_failed (docs/errors.md).
    const vendorFailed = (status: number, body: unknown) =>
      status === 502 && (body as { code?: unknown } | undefined)?.code === 'vendor_api_failed';
    const { statuses, problems } = await runRawShots(port, shots, (shot, exchange) => answerProblems(shot, exchange, vendorFailed));
    expect(problems.slice(0, 10), JSON.stringify(Object.fromEntries(statuses))).toEqual([]);
    // Both sides reached: requests the token let through and answered, and refusals.
    expect([...statuses.keys()].filter((status) => status >= 200 && status < 300).length).toBeGreaterThan(0);
    expect(statuses.get(401) ?? 0).toBeGreaterThan(RUNS / 20);
    // The admin API still answers its operator.
    expect((await t.admin('GET', '/admin/vendors')).statusCode).toBe(200);
  }, 180_000);
});
