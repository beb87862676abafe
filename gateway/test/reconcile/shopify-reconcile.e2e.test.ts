import { startRecordedVendorServer, type RecordedReply, type RecordedVendorServer, type SeenRequest } from '@loyalty-gateway/core/testing';
import { adapter as shopify } from '@loyalty-gateway/adapter-shopify';
import { graphqlOrderOf } from '@loyalty-gateway/adapter-shopify/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConnectionSummary } from '../../src/stores/index.js';
import { openFeaturedGateway, type FeaturedGateway } from '../../src/testing/featured-gateway.js';
import { MEMBERS, SHOP_DOMAIN, SHOPIFY_APP_SECRET, featuredSeedDocument } from '../../src/testing/featured-seed.js';
import { adapterFixture, adapterFixtureJson, vendorSignature } from '../../src/testing/native-fixtures.js';
import { runReconcile, type ReconcileDeps } from '../../src/reconcile/run-reconcile.js';
import { reconcileDepsFor } from '../../src/testing/reconcile-deps.js';

const dialects = process.env.DATABASE_URL ? (['sqlite', 'postgres'] as const) : (['sqlite'] as const);
const API = '/admin/api/2026-07/graphql.json';
const member = MEMBERS.shopify.membershipId;
// Shopify's documented Order (orders-paid.json, unedited), as the Admin GraphQL orders query lists it.
const paid = adapterFixture('shopify', 'orders-paid.json');
// The shop's orders as Admin GraphQL holds them: listed (ids, test flag), then each read back alone.
const paidOrder = () => graphqlOrderOf(adapterFixtureJson('shopify', 'orders-paid.json'));
let orders: Array<Record<string, any>> = [];
const gidOf = (order: Record<string, any>) => `gid://shopify/Order/${order.legacyResourceId}`;
function adminApi(request: SeenRequest): RecordedReply | undefined {
  if (request.path !== API) return undefined;
  const { variables } = JSON.parse(request.body);
  if (typeof variables?.id === 'string') return { body: { data: { order: orders.find((o) => gidOf(o) === variables.id) ?? null } } };
  return {
    body: {
      data: {
        orders: {
          pageInfo: { hasNextPage: false, endCursor: null },
          nodes: orders.map((o) => ({ id: gidOf(o), legacyResourceId: o.legacyResourceId, test: o.test })),
        },
      },
    },
  };
}

describe.each(dialects)('order reconciliation recovers what the Shopify webhook never delivered (%s)', (dialect) => {
  let api: RecordedVendorServer;
  let gw: FeaturedGateway;
  let deps: ReconcileDeps;
  let connection: ConnectionSummary;
  let clock = 0;

  beforeAll(async () => {
    orders = [paidOrder()];
    api = await startRecordedVendorServer({ respond: adminApi });
    gw = await openFeaturedGateway({ seedDocument: featuredSeedDocument({ shopifyApi: `${api.baseUrl}/admin/api/2026-07` }), dialect });
    connection = (await gw.store.listConnections({ vendor: 'shopify' }))[0]!;
    clock = connection.createdAt.getTime() + 60 * 60 * 1000;
    deps = await reconcileDepsFor(gw, () => clock);
  });
  afterAll(async () => {
    await gw?.close();
    await api?.close();
  });

  it('a paid order whose orders/paid never came is earned by the run, once; the late webhook is a duplicate', async () => {
    expect(await gw.balance(member)).toBe(0);
    const run = await runReconcile(shopify, connection, deps, { kind: 'schedule', slot: 'tick-1' });
    expect(run).toMatchObject({ status: 'succeeded', pages: 1, found: 1, recovered: 1, duplicates: 0, failed: 0, error: null });
    const earned = await gw.balance(member);
    expect(earned).toBeGreaterThan(0);
    const asked = JSON.parse(api.seen.find((r) => r.path === API)!.body);
    expect(asked.variables.query).toBe(
      `updated_at:>='${connection.createdAt.toISOString()}' AND updated_at:<'${new Date(clock).toISOString()}'`,
    );
    expect(api.seen[0]!.headers['x-shopify-access-token']).toBe('shpat_fake');
    // Listed cheaply, then read back alone (one query of both would exceed Shopify's 1,000-point limit).
    expect(api.seen.filter((r) => r.path === API).map((r) => JSON.parse(r.body).variables.id ?? 'listing')).toEqual([
      'listing',
      'gid://shopify/Order/450789469',
    ]);

    const late = await gw.app.inject({
      method: 'POST',
      url: '/webhooks/shopify',
      payload: paid,
      headers: {
        'content-type': 'application/json',
        'x-shopify-topic': 'orders/paid',
        'x-shopify-shop-domain': SHOP_DOMAIN,
        ...vendorSignature(shopify.defaultAuth, SHOPIFY_APP_SECRET, '', paid),
      },
    });
    expect(late.statusCode).toBe(200);
    expect(late.json().results).toEqual([expect.objectContaining({ transactionId: '450789469', status: 'duplicate' })]);
    expect(await gw.balance(member)).toBe(earned);
  });

  it('the next run finds the order again (overlap) and changes nothing', async () => {
    const before = await gw.balance(member);
    clock += 15 * 60 * 1000;
    expect(await runReconcile(shopify, connection, deps, { kind: 'schedule', slot: 'tick-2' })).toMatchObject({
      status: 'succeeded',
      recovered: 0,
      duplicates: 1,
    });
    expect(await gw.balance(member)).toBe(before);
  });

  it('a refund whose refunds/create never came is reversed by the run, once; the late webhook and the next run are duplicates; the cancel is ignored', async () => {
    const earned = await gw.balance(member);
    // The same documented order, now refunded (refunds-create.json, unedited) and cancelled.
    const refunded = {
      ...graphqlOrderOf(adapterFixtureJson('shopify', 'orders-paid.json'), [adapterFixtureJson('shopify', 'refunds-create.json')]),
      cancelledAt: new Date(clock).toISOString(),
    };
    orders = [refunded];
    clock += 15 * 60 * 1000;
    const run = await runReconcile(shopify, connection, deps, { kind: 'schedule', slot: 'tick-3' });
    // sale (duplicate), refund (recovered), void (accepted and ignored, neither).
    expect(run).toMatchObject({ status: 'succeeded', found: 1, recovered: 1, duplicates: 1, failed: 0, error: null });
    const reversed = await gw.balance(member);
    expect(reversed).toBeLessThan(earned);

    const body = adapterFixture('shopify', 'refunds-create.json');
    const late = await gw.app.inject({
      method: 'POST',
      url: '/webhooks/shopify',
      payload: body,
      headers: {
        'content-type': 'application/json',
        'x-shopify-topic': 'refunds/create',
        'x-shopify-shop-domain': SHOP_DOMAIN,
        ...vendorSignature(shopify.defaultAuth, SHOPIFY_APP_SECRET, '', body),
      },
    });
    expect(late.statusCode).toBe(200);
    expect(late.json().results).toEqual([
      expect.objectContaining({ eventType: 'sale.refunded', transactionId: '450789469', status: 'duplicate' }),
    ]);
    clock += 15 * 60 * 1000;
    expect(await runReconcile(shopify, connection, deps, { kind: 'schedule', slot: 'tick-4' })).toMatchObject({
      status: 'succeeded',
      recovered: 0,
      duplicates: 2,
    });
    expect(await gw.balance(member)).toBe(reversed);
  });
});
