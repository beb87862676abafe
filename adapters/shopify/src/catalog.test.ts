import { createHttpClient, VENDOR_CALL, VendorApiError } from '@loyalty-gateway/core';
import { adapterKit } from '@loyalty-gateway/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { CATALOG_SCHEDULE, pullCatalog } from './catalog.js';
import { adapter } from './index.js';
import { fixtures, startRecordedShopify } from './testing/index.js';

type RecordedShopify = Awaited<ReturnType<typeof startRecordedShopify>>;

const SHOP = 'bean-there.myshopify.com';
const TOKEN = 'shpat_fake_access_token';
const PAGE_1_CURSOR = 'eyJsYXN0X2lkIjoxMDcwMzI1MDQwLCJsYXN0X3ZhbHVlIjoiMTA3MDMyNTA0MCJ9';
const ok = (name: string) => ({ status: 200, body: fixtures.text(name) });

let server: RecordedShopify | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const kitFor = (recorded: RecordedShopify, credentials: Record<string, string> = { accessToken: TOKEN }, waits?: number[]) =>
  adapterKit(adapter, {
    settings: { appSecret: 'shpss_x', apiBaseUrl: recorded.apiBaseUrl },
    credentials,
    // The real client (real sockets); its waits are recorded and not made, so the test can see
    // that Retry-After was honoured without waiting for it.
    ...(waits
      ? {
          http: createHttpClient({
            timeoutMs: 2000,
            baseDelayMs: 5,
            realWaitMs: (ms) => {
              waits.push(ms);
              return 0;
            },
          }),
        }
      : {}),
  });

describe('shopify catalog pull (Admin GraphQL, cursor paging) against a real HTTP server', () => {
  it('pages through a 429 with Retry-After, a 503 and a 200 THROTTLED to every variant', async () => {
    server = await startRecordedShopify([
      {
        status: 429,
        headers: { 'retry-after': '1' },
        body: '{"errors":"Exceeded 2 calls per second for api client. Reduce request rates to resume uninterrupted service."}',
      },
      ok('graphql-variants-page-1.json'),
      { status: 503, body: '{"errors":"Service Unavailable"}' },
      ok('graphql-throttled.json'),
      ok('graphql-variants-page-2.json'),
    ]);
    const waits: number[] = [];
    const { items, checkpoints } = await kitFor(server, { accessToken: TOKEN }, waits).catalog(SHOP);
    // Retry-After: 1, the first backoff step for the 503, then THROTTLED's wait from the cost data:
    // THROTTLED is a retry condition of the same vendor-call policy, so its wait is the client's too.
    expect(waits).toEqual([1000, 5, 1720]);

    expect(items).toEqual([
      {
        externalId: 'gid://shopify/ProductVariant/642667041472713922',
        name: 'Example T-Shirt - Small',
        category: 'Shirts',
        price: 19.99,
        isActive: true,
      },
      {
        externalId: 'gid://shopify/ProductVariant/757650484644203962',
        name: 'Example T-Shirt - Medium',
        category: 'Shirts',
        price: 19.99,
        isActive: true,
      },
      {
        externalId: 'gid://shopify/ProductVariant/1070325040',
        name: 'Burton Custom Freestyle 151',
        category: 'Snowboard',
        isActive: false,
      },
      {
        externalId: 'gid://shopify/ProductVariant/1',
        name: 'Coffee - 151cm',
        sku: '12345',
        category: 'Coffee',
        price: 100,
        isActive: true,
      },
      {
        externalId: 'gid://shopify/ProductVariant/39072856',
        name: 'IPod Nano - 8GB - Green',
        sku: 'IPOD2008GREEN',
        category: 'Cult Products',
        price: 199,
        isActive: false,
      },
    ]);
    expect(checkpoints).toEqual([PAGE_1_CURSOR, null]);
    expect(server.seen.map((r) => [r.method, r.path, r.headers['x-shopify-access-token']])).toEqual(
      Array.from({ length: 5 }, () => ['POST', '/admin/api/2026-07/graphql.json', TOKEN]),
    );
    const bodies = server.seen.map((r) => JSON.parse(r.body) as { query: string; variables: unknown });
    expect(bodies.map((b) => b.variables)).toEqual([
      { first: 250, cursor: null },
      { first: 250, cursor: null },
      { first: 250, cursor: PAGE_1_CURSOR },
      { first: 250, cursor: PAGE_1_CURSOR },
      { first: 250, cursor: PAGE_1_CURSOR },
    ]);
    expect(bodies[0]?.query).toMatch(/productVariants\(first: \$first, after: \$cursor\)/);
  });

  it('one pull call returns one page and the checkpoint to resume from', async () => {
    server = await startRecordedShopify([ok('graphql-variants-page-2.json')]);
    const kit = kitFor(server);
    const page = await pullCatalog(kit.context(SHOP) as Parameters<typeof pullCatalog>[0], PAGE_1_CURSOR);
    expect(page.items).toHaveLength(2);
    expect(page.checkpoint).toBeNull();
    expect(adapter.catalog!.schedule).toBe(CATALOG_SCHEDULE);
  });

  it('gives up on a persistent THROTTLED with a retryable 429 carrying the wait', async () => {
    server = await startRecordedShopify([ok('graphql-throttled.json'), ok('graphql-throttled.json'), ok('graphql-throttled.json')]);
    const failure = await kitFor(server)
      .catalog(SHOP)
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(VendorApiError);
    expect(failure).toMatchObject({ status: 429, retryable: true, retryAfterMs: 1720, message: 'Shopify GraphQL errors: THROTTLED' });
    expect(server.seen).toHaveLength(3);
  });

  it('HTTP 5xx and THROTTLED share one vendor-call budget: VENDOR_CALL.maxAttempts requests in all', async () => {
    const unavailable = { status: 503, body: '{"errors":"Service Unavailable"}' };
    server = await startRecordedShopify([
      unavailable,
      ok('graphql-throttled.json'),
      unavailable,
      ok('graphql-throttled.json'),
      unavailable,
      ok('graphql-variants-page-1.json'),
    ]);
    const failure = await kitFor(server)
      .catalog(SHOP)
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({ status: 503, retryable: true, attempts: VENDOR_CALL.maxAttempts });
    expect(server.seen).toHaveLength(VENDOR_CALL.maxAttempts);
  });

  it('does not retry ACCESS_DENIED (missing read_products scope)', async () => {
    const denied = { errors: [{ message: 'Access denied for productVariants field.', extensions: { code: 'ACCESS_DENIED' } }] };
    server = await startRecordedShopify([{ status: 200, body: JSON.stringify(denied) }]);
    await expect(kitFor(server).catalog(SHOP)).rejects.toMatchObject({ status: 403, retryable: false });
    expect(server.seen).toHaveLength(1);
  });

  it('refuses to pull without an access token, before any request', async () => {
    server = await startRecordedShopify([]);
    await expect(kitFor(server, {}).catalog(SHOP)).rejects.toMatchObject({
      status: 401,
      message: `no accessToken on the Shopify connection ${SHOP}`,
    });
    expect(server.seen).toHaveLength(0);
  });
});
