import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openOperatorApp, type OperatorApp } from '../testing/open-operator-app.js';

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
    // No inline script may run: the Copy button's handler is a file of this origin.
    expect(response.headers['content-security-policy']).toContain("script-src 'self'");
    expect(response.headers['content-security-policy']).not.toContain("'unsafe-inline'; img-src"); // styles only
    expect(response.headers['content-security-policy']).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(response.body).toContain('href="/directory/shopify"');
    expect(response.body).not.toContain('/directory/clover'); // generic
    expect(response.body).not.toContain('/directory/square'); // no vendor row
    expect(response.body).not.toContain('acme-pos');
  });

  it('the setup page loads its Copy handler from this origin (no inline script); the script is served as JavaScript', async () => {
    const page = await get('/directory/shopify', { host: 'gw.example.test' });
    expect(page.body).toContain('<script src="/directory/assets/copy.js" defer></script>');
    expect(page.body).not.toMatch(/<script>(?!<\/script>)/);
    const script = await get('/directory/assets/copy.js');
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.headers['x-content-type-options']).toBe('nosniff');
    expect(script.body).toContain("querySelectorAll('button[data-copy]')");
  });

  it('a promotion shows in the directory at once, a demotion removes it', async () => {
    await t.admin('POST', '/admin/vendors/clover/promote');
    expect((await get('/directory')).body).toContain('href="/directory/clover"');
    expect((await get('/directory/clover')).statusCode).toBe(200);
    await t.admin('POST', '/admin/vendors/clover/demote');
    expect((await get('/directory')).body).not.toContain('href="/directory/clover"');
    expect((await get('/directory/clover')).statusCode).toBe(404);
  });

  it('in development without GATEWAY_PUBLIC_URL, the setup page derives the webhook URL from the request (and says so)', async () => {
    const response = await get('/directory/shopify', { host: 'gw.example.test:8443' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('http://gw.example.test:8443/webhooks/shopify');
    expect(response.body).toContain('Derived from the address you opened this page with');
    expect(response.body).toContain('Admin API access token');
  });

  it('a Host header that is not host[:port] is never shown as the webhook URL', async () => {
    const response = await get('/directory/shopify', { host: 'evil.example"><x' });
    expect(response.statusCode).toBe(200);
    expect(response.body).not.toContain('evil.example');
    expect(response.body).toContain('public address is not configured yet');
  });

  it('for Square the page shows the notificationUrl Square signs, exactly, whatever the Host', async () => {
    await t.admin('PUT', '/admin/vendors/square/settings', {
      signatureKey: 'k',
      notificationUrl: 'https://loyalty.example.com/hooks/sq?x=1',
    });
    await t.admin('POST', '/admin/vendors/square/promote');
    const response = await get('/directory/square', { host: 'internal:3000' });
    expect(response.body).toContain('https://loyalty.example.com/hooks/sq?x=1');
    expect(response.body).toContain('exactly as shown');
    expect(response.body).not.toContain('internal:3000');
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

describe('directory outside development without GATEWAY_PUBLIC_URL', () => {
  it('shows no URL chosen by the Host header; tells the merchant to ask the operator', async () => {
    const t = await openOperatorApp({ environment: 'production' });
    try {
      const response = await t.app.inject({ method: 'GET', url: '/directory/shopify', headers: { host: 'attacker.example' } });
      expect(response.statusCode).toBe(200);
      expect(response.body).not.toContain('attacker.example');
      expect(response.body).toContain('ask your loyalty operator for the webhook URL');
    } finally {
      await t.close();
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
