import { createHttpClient, VendorApiError } from '@loyalty-gateway/core';
import { adapterKit, type RecordedReply, type RecordedVendorServer } from '@loyalty-gateway/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { pullCatalog } from './catalog.js';
import { adapter } from './index.js';
import { fixtures, startSquareApi } from './testing/index.js';
import type { SquareContext } from './api.js';

const CURSOR = 'CAASHgoTNTEzNDY0NTE3OjMwOTE4MzUyMBIHEAEgATisAg';
const FIRST = '/v2/catalog/list?types=ITEM';
const SECOND = `/v2/catalog/list?types=ITEM&cursor=${CURSOR}`;
const page1 = fixtures.json('catalog-list-page-1.json');
const page2 = fixtures.json('catalog-list-page-2.json');

let server: RecordedVendorServer | undefined;
/** Waits the (real) client decided, recorded and not made: Retry-After honoured without slowing the suite. */
let waits: number[] = [];
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function kitWith(routes: Record<string, RecordedReply[]>) {
  server = await startSquareApi(routes);
  waits = [];
  const http = createHttpClient({
    timeoutMs: 2000,
    baseDelayMs: 5,
    realWaitMs: (ms) => {
      waits.push(ms);
      return 0;
    },
  });
  return adapterKit(adapter, {
    http,
    settings: { signatureKey: 'k', notificationUrl: 'https://loyalty.example.com/webhooks/square', apiBaseUrl: `${server.baseUrl}/` },
    credentials: { accessToken: 'EAAA-fake-token' },
  });
}

describe('catalog pull (GET /v2/catalog/list?types=ITEM, cursor paging)', () => {
  it('declares a nightly node-cron schedule', () => {
    expect(adapter.catalog?.schedule).toBe('20 3 * * *');
  });

  it('pulls every page through a 429 (Retry-After) and a 503, one item per variation', async () => {
    const kit = await kitWith({
      [FIRST]: [
        { status: 429, headers: { 'retry-after': '1' }, body: { errors: [{ category: 'RATE_LIMIT_ERROR', code: 'RATE_LIMITED' }] } },
        { body: page1 },
      ],
      [SECOND]: [{ status: 503, body: { errors: [{ category: 'API_ERROR', code: 'SERVICE_UNAVAILABLE' }] } }, { body: page2 }],
    });
    const { items, checkpoints } = await kit.catalog('S8GWD5R9QB376');
    expect(waits).toEqual([1000, 5]);
    expect(checkpoints).toEqual([CURSOR, null]);
    expect(items).toEqual([
      { externalId: 'CAJBHUIQH7ONTSZI2KTVOUP6', name: 'Tea', sku: 'TEA-MUG-0001', price: 1.5, isActive: true },
      { externalId: 'GY2GXJTVVPQAPW43GFRR3NG6', name: 'Coffee (Regular)', price: 2.5, isActive: true },
      { externalId: 'JE6VHPSRQL6IWSN26C36CJ7W', name: 'Coffee (Large)', sku: 'COF-LRG-0002', price: 3.5, isActive: true },
      { externalId: '5GSZPX6EU7MM75S57OONG3V5', name: 'Tea - Black (Regular)', price: 1.5, isActive: true },
      { externalId: 'XVLBN7DU6JTWHJTG5F265B43', name: 'Tea - Black (Large)', price: 2.25, isActive: true },
      { externalId: 'FHYBVIA6NVBCSOVETA62WEA4', name: 'Tea - Green', price: 1.5, isActive: true },
    ]);
    expect(server?.seen.map((r) => r.url)).toEqual([FIRST, FIRST, SECOND, SECOND]);
    for (const r of server?.seen ?? []) {
      expect(r.headers).toMatchObject({ authorization: 'Bearer EAAA-fake-token', 'square-version': '2025-01-23' });
    }
  });

  it('returns one page per call with the next checkpoint', async () => {
    const kit = await kitWith({ [FIRST]: [{ body: page1 }], [SECOND]: [{ body: page2 }] });
    // The kit types its context for any adapter (unknown settings); this is Square's context.
    const ctx = kit.context('S8GWD5R9QB376') as SquareContext;
    const first = await pullCatalog(ctx, null);
    expect(first.items.map((i) => i.externalId)).toEqual([
      'CAJBHUIQH7ONTSZI2KTVOUP6',
      'GY2GXJTVVPQAPW43GFRR3NG6',
      'JE6VHPSRQL6IWSN26C36CJ7W',
    ]);
    expect(first.checkpoint).toBe(CURSOR);
    const second = await pullCatalog(ctx, first.checkpoint);
    expect(second.items).toHaveLength(3);
    expect(second.checkpoint).toBeNull();
  });

  it('treats an empty catalog as one empty last page', async () => {
    const kit = await kitWith({ [FIRST]: [{ body: {} }] });
    expect(await kit.catalog('S8GWD5R9QB376')).toEqual({ items: [], checkpoints: [null] });
  });

  it('gives up with a VendorApiError once retries are spent, and on a revoked token at once', async () => {
    const busy = await kitWith({ [FIRST]: [{ status: 503, body: {} }] });
    await expect(busy.catalog('S8GWD5R9QB376')).rejects.toMatchObject({ status: 503, retryable: true });
    expect(server?.seen).toHaveLength(3);
    await server?.close();
    const revoked = await kitWith({
      [FIRST]: [{ status: 401, body: { errors: [{ category: 'AUTHENTICATION_ERROR', code: 'UNAUTHORIZED' }] } }],
    });
    await expect(revoked.catalog('S8GWD5R9QB376')).rejects.toBeInstanceOf(VendorApiError);
    expect(server?.seen).toHaveLength(1);
  });
});
