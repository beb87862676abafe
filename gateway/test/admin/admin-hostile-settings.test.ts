import { testDialects } from '@loyalty-gateway/storage/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openOperatorApp, type OperatorApp } from '../../src/testing/open-operator-app.js';

// Issue 35: what an admin may save in provider settings and credentials. Every case but the
// adapter-checked API base URL was answered 200 before.

type ErrorBody = { statusCode: number; code: string; message: string; fields?: Array<{ path: string; message: string }> };

describe.each(testDialects())('admin API: hostile settings ($name)', ({ name }) => {
  let t: OperatorApp;
  beforeEach(async () => {
    t = await openOperatorApp({ dialect: name });
  });
  afterEach(() => t.close());

  const cloverSettings = (apiBaseUrl: string) => ({ authCode: 'new-auth-code-value', apiBaseUrl });

  it('a cloud metadata or link-local API base URL is refused when saved (development too), 422 invalid_settings naming the field', async () => {
    for (const [url, message] of [
      ['http://169.254.169.254', 'must not point at a cloud metadata address (169.254.169.254)'],
      ['https://[::ffff:a9fe:a9fe]', 'must not point at a cloud metadata address (169.254.169.254)'],
      ['https://metadata.google.internal.', 'must not point at a cloud metadata address (metadata.google.internal)'],
      ['http://[fd00:ec2::254]', 'must not point at a cloud metadata address (fd00:ec2::254)'],
      ['https://169.254.7.7', 'must not point at a link-local address (169.254.7.7)'],
      ['https://[fe80::1]', 'must not point at a link-local address (fe80::1)'],
    ] as const) {
      const response = await t.admin('PUT', '/admin/vendors/clover/settings', cloverSettings(url));
      expect(response.statusCode, url).toBe(422);
      expect(response.json()).toMatchObject({ code: 'invalid_settings', fields: [{ path: 'apiBaseUrl', message }] });
    }
    expect((await t.store.getVendor('clover'))?.settings).toMatchObject({ apiBaseUrl: 'https://api.clover.com' });
    // Loopback and private addresses depend on the environment: judged when called.
    expect((await t.admin('PUT', '/admin/vendors/clover/settings', cloverSettings('http://127.0.0.1:4010'))).statusCode).toBe(200);
  });

  it('any URL in provider settings is held to it, whatever the adapter calls the field (Shopify: an API base URL template)', async () => {
    const response = await t.admin('PUT', '/admin/vendors/shopify/settings', {
      appSecret: 'shopify-app-secret-value',
      apiBaseUrl: 'http://[::ffff:169.254.169.254]/admin/api/{shop}',
    });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({
      code: 'invalid_settings',
      fields: [{ path: 'apiBaseUrl', message: 'must not point at a cloud metadata address (169.254.169.254)' }],
    });
  });

  it('an API base URL of 40,000 slashes is refused by its length, before any adapter trims it', async () => {
    const response = await t.admin(
      'PUT',
      '/admin/vendors/clover/settings',
      cloverSettings(`https://api.clover.com${'/'.repeat(40_000)}v3`),
    );
    expect(response.statusCode).toBe(422);
    expect((response.json() as ErrorBody).fields).toEqual([{ path: 'apiBaseUrl', message: 'must be at most 2048 characters' }]);
  });

  it('any URL in provider settings is bounded too (Shopify trims its template per call), so no setting can hold the event loop', async () => {
    const response = await t.admin('PUT', '/admin/vendors/shopify/settings', {
      appSecret: 'shopify-app-secret-value',
      apiBaseUrl: `https://{shop}${'/'.repeat(40_000)}admin/api`,
    });
    expect(response.statusCode).toBe(422);
    expect((response.json() as ErrorBody).fields).toEqual([{ path: 'apiBaseUrl', message: 'must be at most 2048 characters' }]);
  });

  it('a "__proto__" key is an unknown field like any other, in settings and in credentials', async () => {
    const settings = await t.admin(
      'PUT',
      '/admin/vendors/clover/settings',
      '{"authCode":"a","__proto__":{"apiBaseUrl":"http://10.0.0.5"}}',
    );
    expect(settings.statusCode).toBe(422);
    expect(settings.json()).toMatchObject({ code: 'invalid_settings', fields: [{ path: '__proto__', message: 'unknown field' }] });
    expect((await t.store.getVendor('clover'))?.settings).toMatchObject({ authCode: 'clover-auth-code-secret' });

    const [clover] = await t.store.listConnections({ vendor: 'acme-pos' });
    const created = await t.admin(
      'POST',
      '/admin/connections',
      '{"vendor":"clover","storeId":"MERCHANT-NEW-9","merchantId":"m-bean","outletId":"o-uptown","credentials":{"accessToken":"t","__proto__":{"x":1}}}',
    );
    expect(created.statusCode).toBe(422);
    expect((created.json() as ErrorBody).fields).toEqual([{ path: 'credentials.__proto__', message: 'unknown field' }]);
    expect(clover).toBeDefined();
  });
});
