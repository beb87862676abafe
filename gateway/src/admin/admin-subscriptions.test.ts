import { startRecordedVendorServer, type RecordedReply } from '@loyalty-gateway/core/testing';
import { testDialects } from '@loyalty-gateway/storage/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { openOperatorApp, operatorSeed, type OperatorApp } from './testing/open-operator-app.js';

const SHOP = 'later.myshopify.com';
const PUBLIC = 'https://loyalty.example.com';
const HOOK = `${PUBLIC}/webhooks/shopify`;
const GRAPHQL = '/admin/api/2026-07/graphql.json';
const sub = (n: number, topic: string, uri: string) => ({ id: `gid://shopify/WebhookSubscription/${n}`, topic, uri });

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

  async function open(initial: Array<ReturnType<typeof sub>> = [], publicUrl: string | null = PUBLIC) {
    shop = await recordedShop(initial);
    t = await openOperatorApp({
      dialect: name,
      ...(publicUrl ? { publicUrl } : {}),
      seedDocument: operatorSeed({ shopifyApiBaseUrl: `${shop.api.baseUrl}/admin/api/2026-07` }),
    });
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
      report: { webhookUrl: HOOK, created: ['ORDERS_PAID', 'REFUNDS_CREATE', 'ORDERS_CANCELLED'], repaired: [], unchanged: [] },
    });
    expect(shop.subscriptions.map((s) => [s.topic, s.uri])).toEqual([
      ['ORDERS_PAID', HOOK],
      ['REFUNDS_CREATE', HOOK],
      ['ORDERS_CANCELLED', HOOK],
    ]);
    expect(shop.api.seen.every((r) => r.path === GRAPHQL && r.headers['x-shopify-access-token'] === 'shpat_later')).toBe(true);

    const id = created.json().connection.id;
    const listed = await t.admin('GET', `/admin/connections/${id}/subscriptions`);
    expect(listed.json()).toMatchObject({
      webhookUrl: HOOK,
      subscriptions: [
        { topic: 'ORDERS_PAID', uri: HOOK },
        { topic: 'REFUNDS_CREATE', uri: HOOK },
        { topic: 'ORDERS_CANCELLED', uri: HOOK },
      ],
    });
    // Ensuring again changes nothing.
    expect((await t.admin('POST', `/admin/connections/${id}/subscriptions`)).json().report).toMatchObject({
      created: [],
      repaired: [],
      unchanged: ['ORDERS_PAID', 'REFUNDS_CREATE', 'ORDERS_CANCELLED'],
    });
  });

  it('repairs subscriptions that still point at an old gateway address', async () => {
    await open([sub(1, 'ORDERS_PAID', 'https://old.example.com/webhooks/shopify')]);
    const created = await create();
    expect(created.json().subscriptions.report).toMatchObject({
      repaired: ['ORDERS_PAID'],
      created: ['REFUNDS_CREATE', 'ORDERS_CANCELLED'],
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
});
