import { createHmac } from 'node:crypto';
import { adapterKit } from '@loyalty-gateway/core/testing';
import { describe, expect, it } from 'vitest';
import { shopDomainOf } from './auth.js';
import { adminApiBaseUrl, ShopifySettings } from './config.js';
import { adapter } from './index.js';
import { fixtures } from './testing/index.js';

const body = fixtures.text('orders-paid.json');
const topic = { 'X-Shopify-Topic': 'orders/paid', 'X-Shopify-Shop-Domain': 'bean-there.myshopify.com' };
/** Shopify's own recipe, computed independently of the kit: base64 HMAC-SHA256 of the raw body. */
const shopifySignature = (secret: string, raw: string) => createHmac('sha256', secret).update(raw).digest('base64');

describe('shopify auth (HMAC-SHA256, base64, raw body, app secret from settings)', () => {
  const kit = adapterKit(adapter, { settings: { appSecret: 'shpss_current' } });

  it('accepts the signature Shopify computes over the exact bytes', () => {
    const request = kit.unsigned(body, { ...topic, 'X-Shopify-Hmac-Sha256': shopifySignature('shpss_current', body) });
    expect(kit.authenticate(request)).toEqual({ ok: true });
  });

  it('refuses a signature made with another secret: the door answers 401 bad_signature', async () => {
    const request = kit.unsigned(body, { ...topic, 'X-Shopify-Hmac-Sha256': shopifySignature('shpss_attacker', body) });
    expect(kit.authenticate(request)).toMatchObject({ ok: false, reason: 'bad_signature' });
    expect(await kit.post(request)).toMatchObject({ statusCode: 401, code: 'bad_signature' });
    expect(await kit.post(kit.unsigned('garbage{', topic))).toMatchObject({ statusCode: 401 }); // nothing is read before auth
  });

  it('refuses a body changed after signing (re-serialised JSON)', () => {
    const signed = kit.signed(body, topic);
    const reserialised = kit.unsigned(JSON.stringify(JSON.parse(body)), signed.headers as Record<string, string>);
    expect(kit.authenticate(reserialised)).toMatchObject({ ok: false, reason: 'bad_signature' });
  });

  it('refuses a request without X-Shopify-Hmac-Sha256', () => {
    expect(kit.authenticate(kit.unsigned(body, topic))).toMatchObject({ ok: false, reason: 'missing_credentials' });
  });

  it('accepts either secret of a rotation list, and only those', () => {
    const rotating = adapterKit(adapter, { settings: { appSecret: ['shpss_new', 'shpss_old'] } });
    const byOld = rotating.unsigned(body, { ...topic, 'X-Shopify-Hmac-Sha256': shopifySignature('shpss_old', body) });
    const byNew = rotating.unsigned(body, { ...topic, 'X-Shopify-Hmac-Sha256': shopifySignature('shpss_new', body) });
    const byRetired = rotating.unsigned(body, { ...topic, 'X-Shopify-Hmac-Sha256': shopifySignature('shpss_retired', body) });
    expect(rotating.authenticate(byOld)).toEqual({ ok: true });
    expect(rotating.authenticate(byNew)).toEqual({ ok: true });
    expect(rotating.authenticate(byRetired)).toMatchObject({ ok: false, reason: 'bad_signature' });
  });
});

describe('shopify settings and store identity', () => {
  it('identifies the store by the X-Shopify-Shop-Domain header, normalised', () => {
    expect(shopDomainOf({ 'x-shopify-shop-domain': ' Bean-There.myshopify.com ' })).toBe('bean-there.myshopify.com');
    expect(shopDomainOf({})).toBeNull();
    expect(shopDomainOf({ 'x-shopify-shop-domain': 'not a host/../' })).toBeNull();
  });

  it('derives the Admin API base URL from the shop, or uses apiBaseUrl (with {shop})', () => {
    const defaults = ShopifySettings.parse({ appSecret: 's' });
    expect(adminApiBaseUrl(defaults, 'bean-there.myshopify.com')).toBe('https://bean-there.myshopify.com/admin/api/2026-07');
    const pinned = ShopifySettings.parse({ appSecret: 's', apiVersion: '2025-10', apiBaseUrl: 'http://127.0.0.1:9/{shop}/admin/' });
    expect(adminApiBaseUrl(pinned, 'a.myshopify.com')).toBe('http://127.0.0.1:9/a.myshopify.com/admin');
  });

  it('a store id that is not a myshopify.com domain never becomes the host the access token is sent to', async () => {
    const defaults = ShopifySettings.parse({ appSecret: 's' });
    for (const storeId of [
      'evil.example/x?',
      'evil.example',
      'bean-there.myshopify.com.evil.example',
      'Bean-There.myshopify.com',
      'a@b.myshopify.com',
    ]) {
      expect(() => adminApiBaseUrl(defaults, storeId), storeId).toThrow(
        expect.objectContaining({ name: 'VendorApiError', status: 400, retryable: false }),
      );
      expect(adapter.storeId?.safeParse(storeId).success, storeId).toBe(false);
    }
    expect(adapter.storeId?.safeParse('bean-there.myshopify.com').success).toBe(true);
    const kit = adapterKit(adapter, { settings: { appSecret: 's' }, credentials: { accessToken: 'shpat_secret' } });
    await expect(kit.catalog('evil.example/x?')).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('not a myshopify.com domain'),
    });
  });

  it('rejects settings without a secret, with an unknown key, or a malformed version', () => {
    expect(ShopifySettings.safeParse({}).success).toBe(false);
    expect(ShopifySettings.safeParse({ appSecret: [] }).success).toBe(false);
    expect(ShopifySettings.safeParse({ appSecret: 's', appsecret: 't' }).success).toBe(false);
    expect(ShopifySettings.safeParse({ appSecret: 's', apiVersion: '2025-7' }).success).toBe(false);
  });
});
