import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openOperatorApp, type OperatorApp } from '../admin/testing/open-operator-app.js';

describe('GET /directory and /directory/{slug}', () => {
  let t: OperatorApp;
  beforeEach(async () => {
    t = await openOperatorApp();
  });
  afterEach(() => t.close());

  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

  it('lists featured vendors with a registered adapter only, as public HTML', async () => {
    await t.store.setVendorTier('acme-pos', 'featured'); // featured but no adapter: not listed
    const response = await get('/directory');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['content-security-policy']).toContain("default-src 'none'");
    expect(response.body).toContain('href="/directory/shopify"');
    expect(response.body).not.toContain('/directory/clover'); // generic
    expect(response.body).not.toContain('/directory/square'); // no vendor row
    expect(response.body).not.toContain('acme-pos');
  });

  it('a promotion shows in the directory at once, a demotion removes it', async () => {
    await t.admin('POST', '/admin/vendors/clover/promote');
    expect((await get('/directory')).body).toContain('href="/directory/clover"');
    expect((await get('/directory/clover')).statusCode).toBe(200);
    await t.admin('POST', '/admin/vendors/clover/demote');
    expect((await get('/directory')).body).not.toContain('href="/directory/clover"');
    expect((await get('/directory/clover')).statusCode).toBe(404);
  });

  it('the setup page shows the webhook URL on the request\'s own origin', async () => {
    const response = await get('/directory/shopify', { host: 'gw.example.test:8443' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('http://gw.example.test:8443/webhooks/shopify');
    expect(response.body).toContain('Admin API access token');
  });

  it('unknown, malformed and non-featured slugs get the 404 page (HTML, escaped)', async () => {
    for (const slug of ['nobody', 'clover', 'acme-pos', '%3Cscript%3Ealert(1)%3C%2Fscript%3E']) {
      const response = await get(`/directory/${slug}`);
      expect(response.statusCode).toBe(404);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.body).toContain('Integration not found');
      expect(response.body).not.toContain('<script>alert');
    }
  });
});

describe('directory with GATEWAY_PUBLIC_URL', () => {
  it('uses the configured public URL for the webhook address', async () => {
    const t = await openOperatorApp({ publicUrl: 'https://loyalty.example.com' });
    try {
      const response = await t.app.inject({ method: 'GET', url: '/directory/shopify', headers: { host: 'internal:3000' } });
      expect(response.body).toContain('https://loyalty.example.com/webhooks/shopify');
      expect(response.body).not.toContain('internal:3000');
    } finally {
      await t.close();
    }
  });
});
