import { adapterKit } from '@loyalty-gateway/core/testing';
import type { NativeRequest } from '@loyalty-gateway/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adapters } from '../../src/adapters.js';
import { erpTestAdapter } from '../../src/testing/erp-test-adapter.js';
import { openFeaturedGateway, type FeaturedGateway } from '../../src/testing/featured-gateway.js';
import { featuredSeedDocument } from '../../src/testing/featured-seed.js';

const SECRET = 'erp-secret-for-site-a-0123456789';
const NOW = Date.parse('2026-01-05T10:00:00Z');
const TS = String(NOW / 1000);
/** The test ERP with a per-connection HMAC over timestamp + body: every per-connection path of the door. */
const erp = erpTestAdapter({
  slug: 'erp-ts',
  auth: { kind: 'hmac', header: 'x-erp-signature', signed: 'timestamp+body', timestampHeader: 'x-erp-ts', secret: { from: 'connection' } },
});

let gw: FeaturedGateway;
beforeAll(async () => {
  gw = await openFeaturedGateway({ seedDocument: featuredSeedDocument(), adapters: [...adapters, erp], clock: () => NOW });
  await gw.store.upsertVendor({ slug: 'erp-ts', name: 'Test ERP', tier: 'featured', settings: {} });
  await gw.store.createConnection({ vendor: 'erp-ts', storeId: 'site-a', secret: SECRET, merchantId: 'm-bean', outletId: 'o-till' });
});
afterAll(() => gw.close());

const kit = adapterKit(erp, { settings: {}, connectionSecret: SECRET, now: () => new Date(NOW) });
const other = adapterKit(erp, { settings: {}, connectionSecret: 'another-secret', now: () => new Date(NOW) });
const order = JSON.stringify({ orders: [{ storeId: 'site-a', orderId: 'K-1', total: 3 }] });

/** What a vendor sees of an answer: status, and the Error body's code and message (or the success body's shape). */
async function throughDoor(request: NativeRequest) {
  const response = await gw.app.inject({
    method: 'POST',
    url: '/webhooks/erp-ts',
    headers: request.headers as Record<string, string>,
    payload: request.rawBody,
  });
  const body = response.json();
  return response.statusCode >= 400
    ? { statusCode: response.statusCode, code: body.code, message: body.message }
    : { statusCode: response.statusCode, status: body.status, skipped: body.skipped ?? null };
}

async function throughKit(request: NativeRequest) {
  const response = await kit.post(request);
  const body = response.body as { status: string; skipped?: unknown } | undefined;
  return response.statusCode >= 400
    ? { statusCode: response.statusCode, code: response.code, message: response.message }
    : { statusCode: response.statusCode, status: body?.status, skipped: body?.skipped ?? null };
}

describe('the adapter test kit answers what the featured door answers (one implementation of the per-connection checks)', () => {
  const cases: Array<[string, () => NativeRequest, number, string]> = [
    ['a signed order', () => kit.signed(order, { 'x-erp-ts': TS }), 200, 'accepted'],
    ['a signed batch naming no store', () => kit.signed('{"orders":[]}', { 'x-erp-ts': TS }), 200, 'accepted'],
    ["signed with another connection's secret", () => other.signed(order, { 'x-erp-ts': TS }), 401, 'bad_signature'],
    ['a stale timestamp', () => kit.signed(order, { 'x-erp-ts': String(NOW / 1000 - 301) }), 401, 'stale_timestamp'],
    ['no signature', () => kit.unsigned(order, { 'x-erp-ts': TS }), 401, 'bad_signature'],
    ['a signed body it cannot read', () => kit.signed('garbage{', { 'x-erp-ts': TS }), 401, 'bad_signature'],
    ['an unsigned handshake', () => kit.unsigned('{"ping":"p-1"}'), 200, 'handshake'],
  ];

  it.each(cases)('%s → %i %s', async (_name, make, statusCode, codeOrStatus) => {
    const request = make();
    const door = await throughDoor(request);
    expect(door).toMatchObject(statusCode >= 400 ? { statusCode, code: codeOrStatus } : { statusCode, status: codeOrStatus });
    expect(await throughKit(request)).toEqual(door);
  });
});
