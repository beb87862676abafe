import { createHmac } from 'node:crypto';
import { adapter as square } from '@loyalty-gateway/adapter-square';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adapters } from '../../src/adapters.js';
import { erpTestAdapter } from '../../src/testing/erp-test-adapter.js';
import { openFeaturedGateway, type FeaturedGateway } from '../../src/testing/featured-gateway.js';
import {
  SHOP_DOMAIN,
  SHOPIFY_APP_SECRET,
  SQUARE_NOTIFICATION_URL,
  SQUARE_SIGNATURE_KEY,
  featuredSeedDocument,
} from '../../src/testing/featured-seed.js';
import { adapterFixture, vendorSignature } from '../../src/testing/native-fixtures.js';

const ERP_SECRET = 'erp-secret-for-site-a-0123456789';
const json = { 'content-type': 'application/json' };

let gw: FeaturedGateway;
beforeAll(async () => {
  gw = await openFeaturedGateway({
    seedDocument: featuredSeedDocument(),
    adapters: [...adapters, erpTestAdapter()],
    handshakeLimits: { perAddress: 3, windowMs: 60_000 },
  });
  await gw.store.upsertVendor({ slug: 'erp-test', name: 'Test ERP', tier: 'featured', settings: {} });
  await gw.store.createConnection({ vendor: 'erp-test', storeId: 'site-a', secret: ERP_SECRET, merchantId: 'm-bean', outletId: 'o-till' });
});
afterAll(() => gw.close());

const post = (slug: string, payload: Buffer | string, headers: Record<string, string> = {}, remoteAddress = '127.0.0.1') =>
  gw.app.inject({ method: 'POST', url: `/webhooks/${slug}`, payload, headers: { ...json, ...headers }, remoteAddress });

describe('the featured door authenticates over the raw bytes before reading the payload', () => {
  it('an unsigned unreadable body is 401, not a 400 describing what the adapter reads', async () => {
    const shopify = await post('shopify', 'garbage{', { 'x-shopify-topic': 'orders/paid', 'x-shopify-shop-domain': SHOP_DOMAIN });
    expect(shopify.statusCode).toBe(401);
    expect(shopify.json()).toMatchObject({ code: 'bad_signature' });
    expect(shopify.json().fields).toBeUndefined();
    const clover = await post('clover', JSON.stringify({ merchants: { A: [{ objectId: 1 }] } }));
    expect(clover.statusCode).toBe(401);
    expect(clover.json()).toMatchObject({ code: 'bad_signature' });
    expect(clover.json().fields).toBeUndefined();
  });

  it('a signed unreadable body is 400 invalid_native_payload, with fields: the vendor proved who it is', async () => {
    const body = Buffer.from(JSON.stringify({ merchants: 'not a map' }));
    const response = await post('clover', body, { 'x-clover-auth': '0307e264-b33a-4913-88aa-37b10014a0b8' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'invalid_native_payload', fields: [expect.objectContaining({ path: 'merchants' })] });
    const garbage = Buffer.from('garbage{');
    const signed = await post('shopify', garbage, {
      'x-shopify-hmac-sha256': createHmac('sha256', SHOPIFY_APP_SECRET).update(garbage).digest('base64'),
    });
    expect(signed.json()).toMatchObject({ statusCode: 400, code: 'invalid_native_payload' });
  });

  it('a per-connection scheme refuses an unsigned request, readable or not, before telling anything about the payload', async () => {
    for (const body of [
      'garbage{',
      JSON.stringify({ orders: [{ storeId: 7 }] }),
      JSON.stringify({ orders: [{ storeId: 'site-a', orderId: 'X', total: 1 }] }),
    ]) {
      const response = await post('erp-test', body);
      expect(response.statusCode).toBe(401);
      expect(response.json().fields).toBeUndefined();
    }
    // Signed but unreadable: the store whose secret would verify it cannot be found, so still 401.
    const garbage = Buffer.from('garbage{');
    const response = await post('erp-test', garbage, {
      'x-erp-signature': createHmac('sha256', ERP_SECRET).update(garbage).digest('base64'),
    });
    expect(response.json()).toMatchObject({ statusCode: 401, code: 'bad_signature' });
    expect(response.json().fields).toBeUndefined();
  });
});

describe('handshakes: only declared unsigned ones before auth, and what they may write is bounded', () => {
  it('a forged, unsigned Square test notification is 401 and writes no note; the signed one is a handshake', async () => {
    const forged = JSON.stringify({ merchant_id: 'X', type: 'webhooks.test_notification', event_id: 'PASTE-THIS-EVIL', data: {} });
    const response = await post('square', forged);
    expect(response.statusCode).toBe(401);
    expect((await gw.notes.listVendorNotes('square')).map((n) => n.value)).not.toContain('PASTE-THIS-EVIL');

    const body = adapterFixture('square', 'webhooks-test-notification.json');
    const signed = await post('square', body, vendorSignature(square.defaultAuth, SQUARE_SIGNATURE_KEY, SQUARE_NOTIFICATION_URL, body));
    expect(signed.json()).toMatchObject({ status: 'handshake' });
    expect((await gw.notes.listVendorNotes('square'))[0]).toMatchObject({ value: 'ac3ac95b-f97d-458c-a6e6-18981597e05f' });
  });

  it('unsigned handshakes are rate-limited per address (429 Retry-After, nothing written), and the same value is one note', async () => {
    const code = (n: number) => JSON.stringify({ verificationCode: `spam-${n}` });
    for (let n = 0; n < 3; n += 1) expect((await post('clover', code(n), {}, '203.0.113.7')).statusCode).toBe(200);
    const limited = await post('clover', code(3), {}, '203.0.113.7');
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({
      code: 'rate_limited',
      message: expect.stringContaining('unsigned setup calls for clover from this address'),
    });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await post('clover', code(4), {}, '203.0.113.8')).statusCode).toBe(200);
    expect((await post('clover', code(4), {}, '203.0.113.9')).statusCode).toBe(200); // the same value: one note, moved up
    // Sorted: notes written in the same millisecond have no defined order among themselves.
    const values = (await gw.notes.listVendorNotes('clover')).map((n) => n.value);
    expect(values.sort()).toEqual(['spam-0', 'spam-1', 'spam-2', 'spam-4']);
  });

  it("forged unsigned handshakes from many addresses do not lock the vendor's genuine one out, and each note names its sender", async () => {
    // A per-vendor count (say 20 per 10 minutes) would be kept spent by two forged calls a minute from
    // rotating addresses, so Clover's own verificationCode would be answered 429 for as long as they came.
    for (let n = 0; n < 30; n += 1) {
      const forged = await post('clover', JSON.stringify({ verificationCode: `forged-${n}` }), {}, `198.51.100.${n + 1}`);
      expect(forged.statusCode).toBe(200);
    }
    const genuine = await post('clover', JSON.stringify({ verificationCode: 'clover-genuine-code' }), {}, '::ffff:54.244.31.10');
    expect(genuine.statusCode).toBe(200);
    expect(genuine.json()).toMatchObject({ status: 'handshake' });
    // Notes written in the same millisecond have no defined order among themselves: look them up by value.
    const notes = await gw.notes.listVendorNotes('clover');
    expect(notes.find((n) => n.value === 'clover-genuine-code')).toMatchObject({
      note: expect.stringMatching(/\(unsigned, from 54\.244\.31\.10\)$/),
    });
    expect(notes.find((n) => n.value === 'forged-29')).toMatchObject({
      note: expect.stringMatching(/\(unsigned, from 198\.51\.100\.30\)$/),
    });
  });
});
