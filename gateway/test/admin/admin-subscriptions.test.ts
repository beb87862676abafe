import { createHmac } from 'node:crypto';
import { startRecordedVendorServer, type RecordedReply } from '@loyalty-gateway/core/testing';
import { testDialects } from '@loyalty-gateway/storage/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { adapterFixture } from '../../src/testing/native-fixtures.js';
import { openOperatorApp, operatorSeed, type OperatorApp } from '../../src/testing/open-operator-app.js';

const SHOP = 'later.myshopify.com';
const PUBLIC = 'https://loyalty.example.com';
const HOOK = `${PUBLIC}/webhooks/shopify`;
const GRAPHQL = '/admin/api/2026-07/graphql.json';
const sub = (n: number, topic: string, uri: string) => ({ id: `gid://shopify/WebhookSubscription/${n}`, topic, uri });
const TOPICS = ['ORDERS_PAID', 'REFUNDS_CREATE', 'ORDERS_CANCELLED', 'ORDER_TRANSACTIONS_CREATE', 'DISPUTES_UPDATE'];

/**
 * A recorded shop that behaves like Shopify's app-scoped webhookSubscriptions: it keeps the
 * subscriptions it is asked to create or update and lists them back, in the documented payload
 * shapes (WebhookSubscription id/topic/uri; mutation payloads with userErrors).
 */
async function recordedShop(initial: Array<ReturnType<typeof sub>> = []) {
  const subscriptions = [...initial];
  const reply = (data: unknown) => ({ status: 200, body: { data } });
  const state = { failWith: null as null | RecordedReply };
  const answer = (body: { query: string; variables: Record<string, any> }): RecordedReply => {
    if (state.failWith) return state.failWith;
    if (body.query.includes('webhookSubscriptionCreate')) {
      const created = sub(subscriptions.length + 1, body.variables.topic, body.variables.webhookSubscription.uri);
      subscriptions.push(created);
      return reply({ webhookSubscriptionCreate: { webhookSubscription: created, userErrors: [] } });
    }
    if (body.query.includes('webhookSubscriptionUpdate')) {
      const found = subscriptions.find((s) => s.id === body.variables.id)!;
      found.uri = body.variables.webhookSubscription.uri;
      return reply({ webhookSubscriptionUpdate: { webhookSubscription: found, userErrors: [] } });
    }
    return reply({ webhookSubscriptions: { nodes: subscriptions } });
  };
  const api = await startRecordedVendorServer({ key: () => 'graphql', respond: (request) => answer(JSON.parse(request.body)) });
  return { api, subscriptions, state };
}

describe.each(testDialects())('admin API: Shopify webhook subscriptions managed by the gateway ($name)', ({ name }) => {
  let t: OperatorApp;
  let shop: Awaited<ReturnType<typeof recordedShop>>;
  afterEach(async () => {
    await t?.close();
    await shop?.api.close();
  });

  /**
   * The operator app with Shopify's recorded shop. `managedSubscriptions` is the provider setting
   * that lets the gateway subscribe shops through the Admin API (an app without toml subscriptions);
   * the tests of what the gateway creates turn it on, as such an operator would.
   */
  async function open(
    initial: Array<ReturnType<typeof sub>> = [],
    publicUrl: string | null = PUBLIC,
    options: { managedSubscriptions?: boolean; journal?: boolean } = {},
  ) {
    shop = await recordedShop(initial);
    const seedDocument = operatorSeed({ shopifyApiBaseUrl: `${shop.api.baseUrl}/admin/api/2026-07` });
    const shopify = seedDocument.vendors.find((v) => v.slug === 'shopify') as unknown as { settings: Record<string, unknown> };
    shopify.settings.managedSubscriptions = options.managedSubscriptions ?? true;
    t = await openOperatorApp({ dialect: name, ...(publicUrl ? { publicUrl } : {}), seedDocument, journal: options.journal ?? false });
  }
  const create = () =>
    t.admin('POST', '/admin/connections', {
      vendor: 'shopify',
      storeId: SHOP,
      merchantId: 'm-bean',
      outletId: 'o-uptown',
      credentials: { accessToken: 'shpat_later' },
    });

  it('creating a Shopify connection subscribes the shop to the gateway: one step for the merchant', async () => {
    await open();
    const created = await create();
    expect(created.statusCode).toBe(201);
    expect(created.json().subscriptions).toMatchObject({
      status: 'ensured',
      report: { webhookUrl: HOOK, created: TOPICS, repaired: [], unchanged: [] },
    });
    expect(shop.subscriptions.map((s) => [s.topic, s.uri])).toEqual(TOPICS.map((topic) => [topic, HOOK]));
    expect(shop.api.seen.every((r) => r.path === GRAPHQL && r.headers['x-shopify-access-token'] === 'shpat_later')).toBe(true);

    const id = created.json().connection.id;
    const listed = await t.admin('GET', `/admin/connections/${id}/subscriptions`);
    expect(listed.json()).toMatchObject({
      webhookUrl: HOOK,
      subscriptions: TOPICS.map((topic) => ({ topic, uri: HOOK })),
      duplicates: [],
      warnings: [],
    });
    // Ensuring again changes nothing.
    expect((await t.admin('POST', `/admin/connections/${id}/subscriptions`)).json().report).toMatchObject({
      created: [],
      repaired: [],
      unchanged: TOPICS,
    });
  });

  it('repairs subscriptions that still point at an old gateway address', async () => {
    await open([sub(1, 'ORDERS_PAID', 'https://old.example.com/webhooks/shopify')]);
    const created = await create();
    expect(created.json().subscriptions.report).toMatchObject({
      repaired: ['ORDERS_PAID'],
      created: TOPICS.slice(1),
    });
    expect(shop.subscriptions[0]).toEqual(sub(1, 'ORDERS_PAID', HOOK));
  });

  it('without GATEWAY_PUBLIC_URL the connection is still created; the answer says what to set and which command to run', async () => {
    await open([], null);
    const created = await create();
    expect(created.statusCode).toBe(201);
    const id = created.json().connection.id;
    expect(created.json().subscriptions).toEqual({
      status: 'skipped',
      reason: `Set GATEWAY_PUBLIC_URL (the address Shopify delivers to), then run: npm run cli -- admin connections subscriptions ensure ${id}`,
    });
    expect(shop.api.seen).toHaveLength(0);
    expect((await t.admin('POST', `/admin/connections/${id}/subscriptions`)).json()).toMatchObject({
      statusCode: 409,
      code: 'subscriptions_not_available',
    });
  });

  it('a Shopify failure leaves the connection created, says so, and is 502 vendor_api_failed on a manual ensure', async () => {
    await open();
    shop.state.failWith = { status: 200, body: { errors: [{ message: 'Access denied', extensions: { code: 'ACCESS_DENIED' } }] } };
    const created = await create();
    expect(created.statusCode).toBe(201);
    expect(created.json().subscriptions).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/ACCESS_DENIED.*retry with: npm run cli -- admin connections subscriptions ensure/),
    });
    const again = await t.admin('POST', `/admin/connections/${created.json().connection.id}/subscriptions`);
    expect(again.json()).toMatchObject({ statusCode: 502, code: 'vendor_api_failed', message: expect.stringContaining('ACCESS_DENIED') });
  });

  it('adapters that do not manage subscriptions: nothing in the 201, and the routes say so (409); unknown ids are 404', async () => {
    await open();
    const clover = await t.admin('POST', '/admin/connections', {
      vendor: 'clover',
      storeId: 'XYZVJT2ZRRRSC',
      merchantId: 'm-bean',
      outletId: 'o-uptown',
      credentials: { accessToken: 'tok' },
    });
    expect(clover.statusCode).toBe(201);
    expect(clover.json().subscriptions).toBeUndefined();
    expect((await t.admin('GET', `/admin/connections/${clover.json().connection.id}/subscriptions`)).json()).toMatchObject({
      statusCode: 409,
      code: 'subscriptions_not_available',
    });
    expect((await t.admin('GET', '/admin/connections/nope/subscriptions')).json()).toMatchObject({
      statusCode: 404,
      code: 'connection_not_found',
    });
  });
  it('by default (managedSubscriptions false: the app declares its webhooks in shopify.app.toml) creating a connection subscribes nothing, and ensure is 409 saying how to do either', async () => {
    await open([], PUBLIC, { managedSubscriptions: false });
    const created = await create();
    expect(created.statusCode).toBe(201);
    expect(created.json().subscriptions).toMatchObject({
      status: 'skipped',
      reason: expect.stringContaining('not managed by the gateway (provider setting managedSubscriptions is false)'),
    });
    const id = created.json().connection.id;
    const ensure = await t.admin('POST', `/admin/connections/${id}/subscriptions`);
    expect(ensure.json()).toMatchObject({
      statusCode: 409,
      code: 'subscriptions_not_available',
      message: expect.stringMatching(/shopify\.app\.toml.*"managedSubscriptions": true/),
    });
    expect(ensure.json().message).toContain(`order_transactions/create, disputes/update with uri ${HOOK}`);
    expect(shop.subscriptions).toEqual([]);
    // Listing still works: it shows what the Admin API holds (never the toml ones).
    expect((await t.admin('GET', `/admin/connections/${id}/subscriptions`)).json()).toMatchObject({ subscriptions: [], duplicates: [] });
  });

  it('the listing reports one topic subscribed twice to the gateway: every event of it arrives twice', async () => {
    await open(
      [sub(1, 'ORDERS_PAID', HOOK), sub(2, 'ORDERS_PAID', HOOK), sub(3, 'REFUNDS_CREATE', 'https://old.example.com/webhooks/shopify')],
      PUBLIC,
      {
        managedSubscriptions: false,
      },
    );
    const id = (await create()).json().connection.id;
    const listed = (await t.admin('GET', `/admin/connections/${id}/subscriptions`)).json();
    expect(listed.duplicates).toEqual([
      { topic: 'ORDERS_PAID', uri: HOOK, ids: ['gid://shopify/WebhookSubscription/1', 'gid://shopify/WebhookSubscription/2'] },
    ]);
    expect(listed.warnings).toEqual([
      `ORDERS_PAID is subscribed 2 times to ${HOOK} (gid://shopify/WebhookSubscription/1, gid://shopify/WebhookSubscription/2): each of its events arrives 2 times; delete all but one.`,
    ]);
  });

  it('with the delivery journal on, the listing reports events delivered twice though the first delivery was answered in time (toml subscriptions beside API-made ones, which the Admin API does not list)', async () => {
    await open([], PUBLIC, { journal: true });
    const created = await create();
    const id = created.json().connection.id;
    // The same orders/paid event from two subscriptions: one X-Shopify-Event-Id, two X-Shopify-Webhook-Ids.
    const body = adapterFixture('shopify', 'orders-paid.json');
    const deliver = (webhookId: string) =>
      t.app.inject({
        method: 'POST',
        url: '/webhooks/shopify',
        payload: body,
        headers: {
          'content-type': 'application/json',
          'x-shopify-topic': 'orders/paid',
          'x-shopify-shop-domain': SHOP,
          'x-shopify-event-id': 'evt-two-subscriptions',
          'x-shopify-webhook-id': webhookId,
          'x-shopify-hmac-sha256': createHmac('sha256', 'shopify-app-secret-value').update(body).digest('base64'),
        },
      });
    expect((await deliver('toml-delivery')).statusCode).toBe(200);
    expect((await t.admin('GET', `/admin/connections/${id}/subscriptions`)).json()).toMatchObject({
      deliveredTwice: { count: 0, eventIds: [] },
      warnings: [],
    });
    expect((await deliver('api-delivery')).json()).toMatchObject({ results: [{ status: 'duplicate' }] });
    const listed = (await t.admin('GET', `/admin/connections/${id}/subscriptions`)).json();
    expect(listed.deliveredTwice).toEqual({ examined: 2, count: 1, eventIds: ['orders/paid:evt-two-subscriptions'] });
    expect(listed.warnings).toEqual([
      expect.stringMatching(/^1 event\(s\) among this connection's last 2 deliveries arrived again .*shopify\.app\.toml/),
    ]);
  });
});
