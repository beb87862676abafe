import { adapterKit } from '@loyalty-gateway/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { adapter } from './index.js';
import type { ShopifyContext } from './api.js';
import { startRecordedShopify } from './testing/index.js';
import { ensureSubscriptions, listSubscriptions } from './subscriptions.js';

type RecordedShopify = Awaited<ReturnType<typeof startRecordedShopify>>;
const SHOP = 'bean-there.myshopify.com';
const URL_NOW = 'https://loyalty.example.com/webhooks/shopify';
const URL_OLD = 'https://old-gateway.example.com/webhooks/shopify';
let server: RecordedShopify | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

// Answers in the documented shapes of the Admin GraphQL API (webhookSubscriptions: WebhookSubscription
// with id/topic/uri; webhookSubscriptionCreate/Update payloads: webhookSubscription + userErrors).
const answer = (data: unknown) => ({ status: 200, body: JSON.stringify({ data }) });
const sub = (n: number, topic: string, uri: string) => ({ id: `gid://shopify/WebhookSubscription/${n}`, topic, uri });
const listed = (...nodes: unknown[]) => answer({ webhookSubscriptions: { nodes } });
const created = (n: number, topic: string) =>
  answer({ webhookSubscriptionCreate: { webhookSubscription: sub(n, topic, URL_NOW), userErrors: [] } });
const TOPICS = ['ORDERS_PAID', 'REFUNDS_CREATE', 'ORDERS_CANCELLED', 'ORDER_TRANSACTIONS_CREATE', 'DISPUTES_UPDATE'];
// The gateway manages a shop's subscriptions only when the operator says so (the app declares no toml ones).
const kitFor = (recorded: RecordedShopify, managedSubscriptions = true) =>
  adapterKit(adapter, {
    settings: { appSecret: 'shpss_x', apiBaseUrl: recorded.apiBaseUrl, managedSubscriptions },
    credentials: { accessToken: 'shpat_fake' },
  });
const ctxFor = (recorded: RecordedShopify, managed = true) => kitFor(recorded, managed).context(SHOP) as ShopifyContext;
const sent = (recorded: RecordedShopify) =>
  recorded.seen.map((r) => JSON.parse(r.body) as { query: string; variables: Record<string, unknown> });

describe('shopify webhook subscriptions (Admin GraphQL, app-scoped)', () => {
  it('are what the adapter declares for the gateway to manage', () => {
    expect(adapter.subscriptions).toMatchObject({
      topics: TOPICS,
      ensure: ensureSubscriptions,
      list: listSubscriptions,
    });
  });

  it('creates every topic the mapping needs on a shop with none, pointing at the gateway, as JSON', async () => {
    server = await startRecordedShopify([listed(), ...TOPICS.map((topic, i) => created(i + 1, topic))]);
    const report = await ensureSubscriptions(ctxFor(server), URL_NOW);
    expect(report).toMatchObject({ webhookUrl: URL_NOW, created: TOPICS, repaired: [], unchanged: [] });
    expect(report.subscriptions.map((s) => s.uri)).toEqual(TOPICS.map(() => URL_NOW));
    const [list, ...creates] = sent(server);
    expect(list!.variables).toEqual({ topics: TOPICS });
    expect(creates.map((c) => c.variables)).toEqual(
      TOPICS.map((topic) => ({
        topic,
        webhookSubscription: { uri: URL_NOW, format: 'JSON' },
      })),
    );
    expect(server.seen.every((r) => r.headers['x-shopify-access-token'] === 'shpat_fake')).toBe(true);
  });

  it('leaves what already points here, repairs what points at an old URL in place, creates what is missing', async () => {
    server = await startRecordedShopify([
      listed(sub(1, 'ORDERS_PAID', URL_NOW), sub(2, 'REFUNDS_CREATE', URL_OLD)),
      answer({ webhookSubscriptionUpdate: { webhookSubscription: sub(2, 'REFUNDS_CREATE', URL_NOW), userErrors: [] } }),
      created(3, 'ORDERS_CANCELLED'),
      created(4, 'ORDER_TRANSACTIONS_CREATE'),
      created(5, 'DISPUTES_UPDATE'),
    ]);
    const report = await ensureSubscriptions(ctxFor(server), URL_NOW);
    expect(report).toMatchObject({
      unchanged: ['ORDERS_PAID'],
      repaired: ['REFUNDS_CREATE'],
      created: ['ORDERS_CANCELLED', 'ORDER_TRANSACTIONS_CREATE', 'DISPUTES_UPDATE'],
    });
    expect(sent(server)[1]!.variables).toEqual({ id: 'gid://shopify/WebhookSubscription/2', webhookSubscription: { uri: URL_NOW } });
    expect(server.seen).toHaveLength(5);
  });

  it("Shopify's userErrors fail the call naming them (e.g. a URL Shopify will not deliver to)", async () => {
    server = await startRecordedShopify([
      listed(),
      answer({
        webhookSubscriptionCreate: {
          webhookSubscription: null,
          userErrors: [{ field: ['webhookSubscription', 'callbackUrl'], message: 'Address is invalid' }],
        },
      }),
    ]);
    await expect(ensureSubscriptions(ctxFor(server), 'http://localhost/webhooks/shopify')).rejects.toMatchObject({
      status: 422,
      message: 'Shopify refused to create the ORDERS_PAID subscription: Address is invalid',
    });
  });

  it("lists the shop's subscriptions of the adapter's topics, managed or not (to show API-made ones beside the toml's)", async () => {
    server = await startRecordedShopify([listed(sub(1, 'ORDERS_PAID', URL_OLD))]);
    expect(await listSubscriptions(ctxFor(server, false))).toEqual([
      { id: 'gid://shopify/WebhookSubscription/1', topic: 'ORDERS_PAID', uri: URL_OLD },
    ]);
  });

  it('without managedSubscriptions (the default) ensure creates nothing: 409 subscriptions_not_available saying how to use the toml or turn it on', async () => {
    server = await startRecordedShopify([listed()]);
    expect(adapter.settings.parse({ appSecret: 'shpss_x' }).managedSubscriptions).toBe(false);
    const refused = ensureSubscriptions(ctxFor(server, false), URL_NOW);
    await expect(refused).rejects.toMatchObject({ code: 'subscriptions_not_available', statusCode: 409 });
    const message = ((await refused.catch((error: Error) => error)) as Error).message;
    expect(message).toContain('shopify.app.toml');
    expect(message).toContain(
      'orders/paid, refunds/create, orders/cancelled, order_transactions/create, disputes/update with uri https://loyalty.example.com/webhooks/shopify',
    );
    expect(message).toContain('"managedSubscriptions": true');
    expect(server.seen).toHaveLength(0);
  });
});
