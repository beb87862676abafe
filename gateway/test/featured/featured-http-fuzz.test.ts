import { createHmac } from 'node:crypto';
import { adapter as shopify } from '@loyalty-gateway/adapter-shopify';
import { adapter as square } from '@loyalty-gateway/adapter-square';
import { startRecordedVendorServer, type RecordedVendorServer, type SeenRequest } from '@loyalty-gateway/core/testing';
import { testDialects } from '@loyalty-gateway/storage/testing';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openOperatorApp, type OperatorApp } from '../../src/testing/open-operator-app.js';
import {
  CLOVER_AUTH_CODE,
  CLOVER_MERCHANT,
  SHOP_DOMAIN,
  SHOPIFY_APP_SECRET,
  SQUARE_LOCATION,
  SQUARE_NOTIFICATION_URL,
  SQUARE_SIGNATURE_KEY,
  seedWithWooCommerce,
} from '../../src/testing/featured-seed.js';
import {
  hostileShot,
  rawRequestBytes,
  type BaseRequest,
  type HostileBody,
  type RawHeader,
  type RawShot,
} from '../../src/testing/hostile-http.js';
import { adapterFixture, adapterFixtureJson, vendorSignature } from '../../src/testing/native-fixtures.js';
import { RawHttpConnection } from '../../src/testing/raw-http-connection.js';
import { answerJson, answerProblems, runRawShots } from '../../src/testing/run-raw-shots.js';
import { acknowledgedBy, pointsMoved, type AnsweredResult } from '../../src/testing/ledger-movements.js';

/** Generated requests per door and dialect (FUZZ_RUNS); FUZZ_SEED=N explores others (the fixed seed keeps CI repeatable). */
const RUNS = Number(process.env.FUZZ_RUNS ?? 300);
const SEED = Number(process.env.FUZZ_SEED ?? 20261128);
const WOO_SITE = 'https://wc-http-fuzz.example.com/';
const WOO_SECRET = 'wc-store-webhook-secret-http-fuzz';

type Auth = 'signed' | 'absent' | 'garbage' | 'wrong key';
const auth: fc.Arbitrary<Auth> = fc.oneof(
  { weight: 7, arbitrary: fc.constant<Auth>('signed') },
  { weight: 1, arbitrary: fc.constantFrom<Auth>('absent', 'garbage', 'wrong key') },
);

let fresh = 0;
/** `id` with its last ten characters made a number of this run's own: the same length and characters, never seen before. */
const freshId = (id: string): string => `${id.slice(0, -10)}${String((fresh += 1)).padStart(10, '0')}`;
/** A fixture's text with each of `ids` made fresh, every Square location made the seeded one, parsed. */
const freshened = (text: string, ids: string[]): unknown =>
  JSON.parse(
    ids.reduce((t, id) => t.replaceAll(id, freshId(id)), text).replace(/"location_id":\s*"[^"]*"/g, `"location_id": "${SQUARE_LOCATION}"`),
  );

const base = <C>(kind: string, body: unknown, context: C, path: string): BaseRequest<C> => ({ kind, method: 'POST', path, body, context });

interface Door<C> {
  slug: 'shopify' | 'square' | 'clover' | 'woocommerce';
  /** The vendor's documented deliveries (adapters/<slug>/src/fixtures), each generated with ids of its own. */
  bases: fc.Arbitrary<BaseRequest<C>>;
  headers(base: BaseRequest<C>, body: HostileBody, auth: Auth): RawHeader[];
  /** Fetch-backs that fail are answered 503 vendor_api_unavailable (documented); nothing else may be a 5xx. */
  fetchesBack: boolean;
}

/** The signature header of an HMAC scheme for `auth`: right, absent, not a signature, or by another key. */
function hmacHeader(name: string, auth: Auth, sign: (key: string) => string, key: string): RawHeader[] {
  if (auth === 'absent') return [];
  if (auth === 'garbage') return [[name, Buffer.from([0x76, 0x31, 0x3d, 0xe9, 0xff, 0x41])]];
  return [[name, sign(auth === 'signed' ? key : `${key}-wrong`)]];
}

const shopifyDoor: Door<{ topic: string }> = {
  slug: 'shopify',
  bases: fc
    .constantFrom(
      { file: 'orders-paid.json', key: null, topic: 'orders/paid' },
      { file: 'orders-create-phone-normalised.response.json', key: 'order', topic: 'orders/paid' },
      { file: 'orders-cancelled-with-refund-giftcard-discrepancy.response.json', key: 'order', topic: 'orders/cancelled' },
      { file: 'refunds-create.json', key: null, topic: 'refunds/create' },
      { file: 'refunds-create-line-items-2026-07.response.json', key: 'refund', topic: 'refunds/create' },
      { file: 'disputes-needs-response.response.json', key: 'dispute', topic: 'disputes/update' },
      { file: 'orders-paid-test-notification.json', key: null, topic: 'orders/paid' },
    )
    .map(({ file, key, topic }) => {
      const document = adapterFixtureJson('shopify', file) as Record<string, unknown>;
      const resource = (key ? document[key] : document) as Record<string, unknown>;
      // A fresh id for each order, refund or dispute (a refund keeps its order: the sale it reverses).
      return base(file, { ...resource, id: 9_000_000_000 + (fresh += 1) }, { topic }, '/webhooks/shopify');
    }),
  headers: (b, body, a) => [
    ['Content-Type', body.contentType ?? 'application/json'],
    ...(body.contentEncoding ? [['Content-Encoding', body.contentEncoding] as RawHeader] : []),
    ['X-Shopify-Topic', b.context.topic],
    ['X-Shopify-Shop-Domain', SHOP_DOMAIN],
    ['X-Shopify-API-Version', '2025-07'],
    ['X-Shopify-Webhook-Id', `b54557e4-bdd9-4b37-8a5f-${String(fresh).padStart(12, '0')}`],
    ...hmacHeader(
      'X-Shopify-Hmac-Sha256',
      a,
      (key) => Object.values(vendorSignature(shopify.defaultAuth, key, 'http://localhost/webhooks/shopify', body.bytes))[0]!,
      SHOPIFY_APP_SECRET,
    ),
  ],
  fetchesBack: false,
};

const squareDoor: Door<null> = {
  slug: 'square',
  bases: fc
    .constantFrom<Array<{ file: string; ids: string[] }>>(
      // A completed payment, the sale: three times as often as each other event.
      ...Array.from({ length: 3 }, () => ({
        file: 'payment-updated-completed.json',
        ids: ['hYy9pRFVxpDsO1FB05SunFWUe9JZY', '03O3USaPaAaFnI6kkwB1JxGgBsUZY'],
      })),
      { file: 'order-updated-webhook.json', ids: ['eA3vssLHKJrv9H0IdJCM3gNqfdcZY'] },
      { file: 'refund-updated-completed.json', ids: ['KkAkhdMsgzn59SM8A89WgKwekxLZY', 'haOyDuHiqtAXMk0d8pDKXpL7Jg4F'] },
      { file: 'dispute-created-webhook.json', ids: ['ORSEVtZAJxb37RA1EiGw', 'fbmsaEOpoARDKxiSGH1fqPuqoqFZY'] },
      { file: 'invoice-payment-made-webhook.json', ids: ['0-ChCHu2mZEabLeeHahQnXDjZQECY', 'CAISENgvlJ6jLWAzERDzjyHVybY'] },
      { file: 'webhooks-test-notification.json', ids: [] },
    )
    .map(({ file, ids }) => {
      const event = freshened(adapterFixture('square', file).toString('utf8'), ids) as Record<string, unknown>;
      return base(file, { ...event, event_id: `fz-${(fresh += 1)}` }, null, '/webhooks/square');
    }),
  headers: (_b, body, a) => [
    ['Content-Type', body.contentType ?? 'application/json'],
    ...(body.contentEncoding ? [['Content-Encoding', body.contentEncoding] as RawHeader] : []),
    ['Square-Version', '2025-10-16'],
    ['User-Agent', 'Square Connect v2'],
    ...hmacHeader(
      'X-Square-HmacSha256-Signature',
      a,
      (key) => Object.values(vendorSignature(square.defaultAuth, key, SQUARE_NOTIFICATION_URL, body.bytes))[0]!,
      SQUARE_SIGNATURE_KEY,
    ),
  ],
  fetchesBack: true,
};

/** A Clover id of this run's own: 13 upper-case letters and digits. */
const cloverId = () => `FZ${String((fresh += 1)).padStart(11, '0')}`;

const cloverDoor: Door<null> = {
  slug: 'clover',
  // The setup call a sixth of the time: past five an address is refused 429 (the handshake limit).
  bases: fc.constantFrom('notification', 'notification', 'notification', 'payment', 'payment', 'verification').map((kind) => {
    if (kind === 'verification')
      return base('webhook-verification.json', adapterFixtureJson('clover', 'webhook-verification.json'), null, '/webhooks/clover');
    // The documented notification, its orders (or a payment) for the seeded merchant made fresh; the other merchant is not connected.
    const notification = adapterFixtureJson('clover', 'webhook-notification.json') as { merchants: Record<string, unknown[]> };
    const updates = kind === 'payment' ? [{ objectId: `P:${cloverId()}`, type: 'CREATE', ts: 1_700_000_000_000 }] : [];
    return base(
      `webhook-notification.json (${kind})`,
      {
        ...notification,
        merchants: {
          ...notification.merchants,
          [CLOVER_MERCHANT]: [
            ...(notification.merchants[CLOVER_MERCHANT] as Array<Record<string, unknown>>).map((u) => ({
              ...u,
              objectId: `O:${cloverId()}`,
            })),
            ...updates,
          ],
        },
      },
      null,
      '/webhooks/clover',
    );
  }),
  headers: (_b, body, a) => [
    ['Content-Type', body.contentType ?? 'application/json'],
    ...(body.contentEncoding ? [['Content-Encoding', body.contentEncoding] as RawHeader] : []),
    ...(a === 'absent'
      ? []
      : [
          [
            'X-Clover-Auth',
            a === 'signed' ? CLOVER_AUTH_CODE : a === 'wrong key' ? '0307e264-0000-4913-88aa-37b10014a0b8' : Buffer.from([0xe9, 0x00]),
          ] as RawHeader,
        ]),
  ],
  fetchesBack: true,
};

const woo727 = adapterFixtureJson('woocommerce', 'order-727.json') as Record<string, unknown>;
const woo723Refunds = (
  (adapterFixtureJson('woocommerce', 'orders-list.json') as Array<{ id: number; refunds: Array<{ id: number }> }>).find((o) => o.id === 723)
    ?.refunds ?? []
).map((r) => ({ ...r }));

const wooDoor: Door<{ ping: boolean }> = {
  slug: 'woocommerce',
  // The documented order 727, its update to completed, and 727 with order 723's documented refunds, cancelled, failed (as the featured fuzz builds them); the ping.
  bases: fc
    .constantFrom<[string, Record<string, unknown> | null]>(
      ['order-727.json', woo727],
      ['order-727-update-completed.json', adapterFixtureJson('woocommerce', 'order-727-update-completed.json') as Record<string, unknown>],
      ['order-727.json with refunds', { ...woo727, refunds: woo723Refunds }],
      ['order-727.json cancelled', { ...woo727, status: 'cancelled', refunds: woo723Refunds.slice(0, 1) }],
      ['order-727.json failed', { ...woo727, status: 'failed' }],
      ['ping', null],
    )
    .map(([kind, order]) => {
      if (!order) return base(kind, { webhook_id: '14' }, { ping: true }, '/webhooks/woocommerce');
      const id = 900_000 + (fresh += 1);
      const refunds = (order.refunds as Array<{ id: number }> | undefined)?.map((r, i) => ({ ...r, id: id * 10 + i }));
      return base(kind, { ...order, id, ...(refunds ? { refunds } : {}) }, { ping: false }, '/webhooks/woocommerce');
    }),
  headers: (b, body, a) => [
    ['Content-Type', body.contentType ?? (b.context.ping ? 'application/x-www-form-urlencoded' : 'application/json')],
    ...(body.contentEncoding ? [['Content-Encoding', body.contentEncoding] as RawHeader] : []),
    ...(b.context.ping
      ? []
      : ([
          ['User-Agent', 'WooCommerce/9.3.3 Hookshot (WordPress/6.6.2)'],
          ['X-WC-Webhook-Source', WOO_SITE],
          ['X-WC-Webhook-Topic', 'order.updated'],
          ['X-WC-Webhook-Resource', 'order'],
          ['X-WC-Webhook-Event', 'updated'],
          ['X-WC-Webhook-ID', '14'],
          ['X-WC-Webhook-Delivery-ID', String(fresh)],
          ...hmacHeader('X-WC-Webhook-Signature', a, (key) => createHmac('sha256', key).update(body.bytes).digest('base64'), WOO_SECRET),
        ] as RawHeader[])),
  ],
  fetchesBack: false,
};

// ---- the vendors' APIs, answering every fetch-back as documented -----------------------------

const cloverOrders = ['order-paid.json', 'order-refunded.json', 'order-open.json'].map(
  (f) => adapterFixtureJson('clover', f) as Record<string, unknown>,
);
const squareOrder = (adapterFixtureJson('square', 'order-retrieve.json') as { order: Record<string, unknown> }).order;
const squarePayment = (adapterFixtureJson('square', 'payment-retrieve.json') as { payment: Record<string, unknown> }).payment;
const codeSum = (id: string) => [...id].reduce((sum, c) => sum + c.charCodeAt(0), 0);

/** A documented Clover order (paid, refunded or open, by the id) under `id`, its refunds given ids of their own. */
function cloverOrder(id: string): unknown {
  const order = cloverOrders[codeSum(id) % cloverOrders.length]!;
  const refunds = order.refunds as { elements?: Array<Record<string, unknown>> } | undefined;
  return {
    ...order,
    id,
    ...(refunds?.elements
      ? { refunds: { ...refunds, elements: refunds.elements.map((r, i) => ({ ...r, id: `R${i}${id.slice(2)}` })) } }
      : {}),
  };
}

/** What Clover's and Square's APIs answer (their recorded documents, under the ids asked for); their own 404 otherwise. */
function vendorAnswer(request: SeenRequest) {
  const path = request.path.split('/').map((part) => {
    try {
      return decodeURIComponent(part);
    } catch {
      return part;
    }
  });
  const clover = `/v3/merchants/${CLOVER_MERCHANT}/`;
  if (request.path.startsWith(`${clover}orders/`)) return { body: cloverOrder(path[5]!) };
  if (request.path.startsWith(`${clover}payments/`)) {
    const payment = adapterFixtureJson('clover', 'payment-preauth-success.json') as Record<string, unknown>;
    return { body: { ...payment, id: path[5], order: { id: `Q${path[5]!.slice(1)}` } } };
  }
  if (request.path.startsWith(`${clover}customers/`)) return { body: adapterFixtureJson('clover', 'customer.json') };
  if (request.path.startsWith('/v3/')) return { status: 404, body: adapterFixtureJson('clover', 'not-found.json') };
  if (request.path.startsWith('/v2/orders/')) return { body: { order: { ...squareOrder, id: path[3], location_id: SQUARE_LOCATION } } };
  if (request.path.startsWith('/v2/payments/'))
    return { body: { payment: { ...squarePayment, id: path[3], order_id: `O${path[3]!.slice(1)}`, location_id: SQUARE_LOCATION } } };
  if (request.path.startsWith('/v2/customers/')) return { body: adapterFixtureJson('square', 'customer-retrieve.json') };
  return { status: 404, body: { errors: [{ category: 'INVALID_REQUEST_ERROR', code: 'NOT_FOUND', detail: 'Resource not found.' }] } };
}

/**
 * The four featured doors under generated raw HTTP requests on real sockets (16 keep-alive
 * connections, fixed seed), on both dialects: each vendor's documented deliveries, correctly
 * signed for most, sent as they are or with their body, headers, request line or framing made
 * hostile (docs/decisions.md, "HTTP-level fuzzing"). Clover's and Square's APIs answer the
 * fetch-backs as documented. Whatever arrives: an answer, on a connection that stays usable or is
 * closed cleanly; no 5xx but the documented 503 vendor_api_unavailable of a fetch-back; every
 * refusal the Error body with the request's X-Request-ID; and the ledger moved exactly what the
 * 2xx answers acknowledged.
 */
describe.each(testDialects())('fuzz: the featured doors under hostile raw HTTP ($name)', ({ name }) => {
  let t: OperatorApp;
  let vendorApi: RecordedVendorServer;
  let port: number;
  beforeAll(async () => {
    vendorApi = await startRecordedVendorServer({ respond: vendorAnswer });
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
    // Shopify's documented order 450789469 paid first: the documented refunds of it then reverse.
    const paid = adapterFixture('shopify', 'orders-paid.json');
    const connection = await RawHttpConnection.open(port);
    const first = await connection.exchange(
      rawRequestBytes({
        method: 'POST',
        target: '/webhooks/shopify',
        version: 'HTTP/1.1',
        headers: [
          ['Host', 'loyalty.example.com'],
          ...shopifyDoor.headers(
            base('orders-paid.json', null, { topic: 'orders/paid' }, '/webhooks/shopify'),
            { kind: 'as sent', bytes: paid },
            'signed',
          ),
        ],
        body: paid,
        framing: { kind: 'length' },
      }),
    );
    connection.close();
    expect(first.answer?.status).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
    await vendorApi?.close();
  });

  const moved = () => pointsMoved(t.database.db);

  it.each([shopifyDoor, squareDoor, cloverDoor, wooDoor] as Array<Door<unknown>>)(
    `${RUNS} hostile requests to /webhooks/$slug: an answer on a usable or cleanly closed connection, no 5xx but a fetch-back's documented 503, every refusal the Error body, the ledger moved what the 2xx answers acknowledged`,
    async (door) => {
      const shots: RawShot[] = fc.sample(hostileShot({ base: door.bases, auth, signed: 'signed', headers: door.headers }), {
        numRuns: RUNS,
        seed: SEED,
      });
      const before = await moved();
      let acknowledged = 0;
      let earning = 0;
      const { statuses, problems } = await runRawShots(port, shots, (shot, exchange) => {
        const found = answerProblems(
          shot,
          exchange,
          (status, body) =>
            door.fetchesBack && status === 503 && (body as { code?: unknown } | undefined)?.code === 'vendor_api_unavailable',
        );
        const answer = exchange.answer;
        if (answer && answer.status >= 200 && answer.status < 300) {
          const results = (answerJson(answer) as { results?: AnsweredResult[] } | undefined)?.results ?? [];
          const points = acknowledgedBy(results);
          acknowledged += points;
          if (points > 0) earning += 1;
        }
        return found;
      });
      expect(problems.slice(0, 10), JSON.stringify(Object.fromEntries(statuses))).toEqual([]);
      expect(await moved()).toBe(before + acknowledged);
      // The generator reaches the mapping (signed deliveries that earned) and the refusals.
      expect(earning).toBeGreaterThan(RUNS / 20);
      expect([...statuses.keys()].some((status) => status >= 400)).toBe(true);
    },
    180_000,
  );
});
