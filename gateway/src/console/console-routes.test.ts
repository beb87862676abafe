import { testDialects } from '@loyalty-gateway/storage/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, openOperatorApp, type OperatorApp } from '../testing/open-operator-app.js';
import { bodyOf, headersFor } from '../testing/gateway-fixture.js';
import { sale } from '../testing/test-seed.js';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

describe.each(testDialects())('the operator console (/console) ($name)', ({ name }) => {
  let t: OperatorApp;
  const fault = { down: false };
  beforeEach(async () => {
    fault.down = false;
    t = await openOperatorApp({ dialect: name, journal: true, engineFault: fault });
  });
  afterEach(() => t.close());

  const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

  /** Signs in; returns the cookie header and the session's CSRF token. */
  async function signIn(): Promise<{ cookie: string; csrf: string }> {
    const response = await t.app.inject({ method: 'POST', url: '/console/sign-in', headers: FORM, payload: form({ token: ADMIN_TOKEN }) });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/console');
    const setCookie = String(response.headers['set-cookie']);
    expect(setCookie).toMatch(/^gw_console=[\w-]{43}; Path=\/console; HttpOnly; SameSite=Strict; Max-Age=28800$/);
    const cookie = setCookie.split(';', 1)[0]!;
    const page = await t.app.inject({ method: 'GET', url: '/console', headers: { cookie } });
    const csrf = /name="_csrf" value="([^"]+)"/.exec(page.body)?.[1];
    expect(csrf).toBeDefined();
    return { cookie, csrf: csrf! };
  }
  const get = (url: string, cookie: string) => t.app.inject({ method: 'GET', url, headers: { cookie } });
  const post = (url: string, cookie: string, fields: Record<string, string>) =>
    t.app.inject({ method: 'POST', url, headers: { ...FORM, cookie }, payload: form(fields) });
  const webhook = (body: unknown, options: Parameters<typeof headersFor>[1] = {}) => {
    const raw = bodyOf(body);
    return t.app.inject({ method: 'POST', url: '/webhooks/generic', headers: headersFor(raw, options), payload: raw });
  };

  it('without a session every page redirects (303) to the sign-in form; the form is strict-CSP HTML', async () => {
    for (const url of [
      '/console',
      '/console/connections',
      '/console/vendors',
      '/console/runs',
      '/console/deliveries/x',
      '/console/nowhere',
    ]) {
      const response = await t.app.inject({ method: 'GET', url, headers: { cookie: 'gw_console=forged' } });
      expect(response.statusCode, url).toBe(303);
      expect(response.headers.location).toBe('/console/sign-in');
    }
    const promote = await t.app.inject({
      method: 'POST',
      url: '/console/vendors/clover/promote',
      headers: FORM,
      payload: form({ _csrf: 'x' }),
    });
    expect(promote.statusCode).toBe(303);
    expect((await t.store.getVendor('clover'))?.tier).toBe('generic');
    const signInForm = await t.app.inject({ method: 'GET', url: '/console/sign-in' });
    expect(signInForm.statusCode).toBe(200);
    expect(signInForm.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(signInForm.headers['content-security-policy']).toContain("default-src 'none'");
    expect(signInForm.headers['content-security-policy']).toContain("form-action 'self'");
    expect(signInForm.headers['content-security-policy']).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(signInForm.headers['cache-control']).toBe('no-store');
    expect(signInForm.body).toContain('<form method="post" action="/console/sign-in">');
    expect(signInForm.body).not.toContain('<script');
  });

  it('the session cookie is Secure when the sign-in came over HTTPS through a trusted proxy, and only then', async () => {
    const behindProxy = await openOperatorApp({ dialect: name, trustedProxies: ['127.0.0.1'] });
    try {
      const signInVia = (app: OperatorApp, proto: string) =>
        app.app.inject({
          method: 'POST',
          url: '/console/sign-in',
          remoteAddress: '127.0.0.1',
          headers: { ...FORM, 'x-forwarded-proto': proto },
          payload: form({ token: ADMIN_TOKEN }),
        });
      expect(String((await signInVia(behindProxy, 'https')).headers['set-cookie'])).toMatch(
        /; HttpOnly; SameSite=Strict; Max-Age=28800; Secure$/,
      );
      expect(String((await signInVia(behindProxy, 'http')).headers['set-cookie'])).not.toContain('Secure');
      // Without a trusted proxy the header is anyone's to send: it does not count.
      expect(String((await signInVia(t, 'https')).headers['set-cookie'])).not.toContain('Secure');
    } finally {
      await behindProxy.close();
    }
  });

  it('a wrong token gets the form again with an error (401) and no session', async () => {
    for (const token of ['wrong', '', ADMIN_TOKEN.slice(0, -1)]) {
      const response = await t.app.inject({ method: 'POST', url: '/console/sign-in', headers: FORM, payload: form({ token }) });
      expect(response.statusCode).toBe(401);
      expect(response.headers['set-cookie']).toBeUndefined();
      expect(response.body).toContain('role="alert"');
      expect(response.body).toContain('not this gateway');
      expect(response.body).toContain('action="/console/sign-in"');
    }
  });

  it("a POST without the session's CSRF token is refused (403) and changes nothing; sign-out ends the session", async () => {
    const { cookie, csrf } = await signIn();
    for (const fields of [{} as Record<string, string>, { _csrf: 'forged' }, { _csrf: `${csrf}x` }]) {
      const response = await post('/console/vendors/clover/promote', cookie, fields);
      expect(response.statusCode).toBe(403);
      expect(response.body).toContain('nothing was done');
    }
    const json = await t.app.inject({
      method: 'POST',
      url: '/console/vendors/clover/promote',
      headers: { cookie, 'content-type': 'application/json' },
      payload: JSON.stringify({ _csrf: csrf }),
    });
    expect(json.statusCode).toBe(403);
    expect((await t.store.getVendor('clover'))?.tier).toBe('generic');

    expect((await post('/console/sign-out', cookie, { _csrf: 'forged' })).statusCode).toBe(403);
    const out = await post('/console/sign-out', cookie, { _csrf: csrf });
    expect(out.statusCode).toBe(303);
    expect(out.headers.location).toBe('/console/sign-in');
    expect(String(out.headers['set-cookie'])).toContain('Max-Age=0');
    expect((await get('/console', cookie)).statusCode).toBe(303);
  });

  it("promote via the form changes the tier; a refused promotion is the page's message", async () => {
    const { cookie, csrf } = await signIn();
    const vendors = await get('/console/vendors', cookie);
    expect(vendors.statusCode).toBe(200);
    expect(vendors.body).toContain('aria-label="Promote Clover"');
    expect(vendors.body).toContain('aria-label="Demote Shopify"');
    const promoted = await post('/console/vendors/clover/promote', cookie, { _csrf: csrf });
    expect(promoted.statusCode).toBe(303);
    expect(promoted.headers.location).toBe('/console/vendors');
    expect((await t.store.getVendor('clover'))?.tier).toBe('featured');
    const after = await get('/console/vendors', cookie);
    expect(after.body).toContain('Clover is now featured.');
    expect(after.body).toContain('aria-label="Demote Clover"');
    expect((await get('/console/vendors', cookie)).body).not.toContain('Clover is now featured.'); // shown once

    // Square has an adapter but no settings: refused with the admin API's own words, nothing written.
    const refused = await post('/console/vendors/square/promote', cookie, { _csrf: csrf });
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toContain('role="alert"');
    expect(refused.body).toContain('Square cannot be promoted until its provider settings fit its adapter');
    expect(refused.body).not.toMatch(/at \w+ \(/); // never a stack
    expect((await post('/console/vendors/acme-pos/promote', cookie, { _csrf: csrf })).body).toContain('has no featured adapter');

    expect((await post('/console/vendors/clover/demote', cookie, { _csrf: csrf })).statusCode).toBe(303);
    expect((await t.store.getVendor('clover'))?.tier).toBe('generic');
  });

  it("deliveries: filters, a next-page link, a delivery's story, and Replay only for a kept 5xx", async () => {
    const { cookie, csrf } = await signIn();
    expect((await webhook(sale({ id: 'C-1' }))).statusCode).toBe(200);
    const refused = await webhook(sale({ id: 'C-2' }), { secret: 'whsec_wrong_secret_0123456789abcdef' });
    expect(refused.statusCode).toBe(401);
    fault.down = true;
    const failed = await webhook(sale({ id: 'C-500' }));
    expect(failed.statusCode).toBe(500);
    fault.down = false;

    const all = await get('/console', cookie);
    expect(all.statusCode).toBe(200);
    expect(all.body).toContain('Deliveries, newest first');
    expect(all.body.indexOf('C-500')).toBeLessThan(all.body.indexOf('C-1'));
    const byCode = await get('/console?code=bad_signature&vendor=&store=', cookie);
    expect(byCode.body).toContain(refused.headers['x-request-id'] as string);
    expect(byCode.body).not.toContain('C-1<');
    const byRequestId = await get(`/console?requestId=${refused.headers['x-request-id']}`, cookie);
    expect(byRequestId.body).toContain('bad_signature');
    expect((byRequestId.body.match(/href="\/console\/deliveries\//g) ?? []).length).toBe(1);
    const bad = await get('/console?status=abc', cookie);
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('status an HTTP status such as 500');
    expect(bad.body).toContain('value="abc"');

    // Paging: the journal's own cursor, the filters kept.
    for (let i = 0; i < 50; i++) await webhook(sale({ id: 'C-1' }), { secret: 'whsec_wrong_secret_0123456789abcdef' });
    const first = await get('/console?vendor=acme-pos', cookie);
    const next = /href="(\/console\?vendor=acme-pos&amp;cursor=[^"]+)" rel="next"/.exec(first.body)?.[1];
    expect(next).toBeDefined();
    const second = await get(next!.replace(/&amp;/g, '&'), cookie);
    expect(second.statusCode).toBe(200);
    expect(second.body).toContain('C-1');
    expect(second.body).not.toContain('rel="next"');

    const okId = (await t.journal!.list({ transactionId: 'C-1' })).deliveries[0]!.id;
    const ok = await get(`/console/deliveries/${okId}`, cookie);
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toContain('<strong>signature</strong>: verified');
    expect(ok.body).not.toContain('>Replay</button>');

    const failedId = failed.headers['x-request-id'] as string;
    const shown = await get(`/console/deliveries/${failedId}`, cookie);
    expect(shown.body).toContain('engine_unavailable_retry');
    expect(shown.body).toContain('>Replay</button>');
    const replayed = await post(`/console/deliveries/${failedId}/replay`, cookie, { _csrf: csrf });
    expect(replayed.statusCode).toBe(303);
    const entryId = (await t.journal!.get(failedId))!.id;
    expect(replayed.headers.location).toBe(`/console/deliveries/${entryId}`);
    const afterReplay = await get(replayed.headers.location as string, cookie);
    expect(afterReplay.body).toMatch(/Replayed as replay-[\w-]+: processed\./);
    expect(afterReplay.body).toMatch(/<td>200<\/td><td>processed<\/td><td>console:[0-9a-f]{12}<\/td>/);

    // A replay the pipeline refuses is the page's message, in plain words.
    const notReplayable = await post(`/console/deliveries/${okId}/replay`, cookie, { _csrf: csrf });
    expect(notReplayable.statusCode).toBe(409);
    expect(notReplayable.body).toContain('Only deliveries that failed on the gateway');
    expect((await get('/console/deliveries/nothing-here', cookie)).statusCode).toBe(404);
  });

  it('connections: vendor, store, merchant/outlet, last seen, the last hour, skew; rotate shows the new secret once; deactivate and activate', async () => {
    const { cookie, csrf } = await signIn();
    expect((await get('/console/connections', cookie)).body).toContain(
      '<td data-label="Last seen">not since this process started</td><td data-label="Last hour">no requests</td>',
    );
    expect((await webhook(sale({ id: 'S-1' }))).statusCode).toBe(200); // a request, so the clock skew is known
    expect((await webhook(sale({ id: 'S-2' }), { secret: 'whsec_wrong_secret_0123456789abcdef' })).statusCode).toBe(401);
    expect((await webhook(sale({ id: 'S-3' }), { timestamp: Math.floor(Date.now() / 1000) - 900 })).statusCode).toBe(401);
    fault.down = true;
    expect((await webhook(sale({ id: 'S-4' }))).statusCode).toBe(500);
    fault.down = false;
    const page = await get('/console/connections', cookie);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<td data-label="Vendor / store"><span class="id">acme-pos</span> / <span class="id">store-001</span>');
    expect(page.body).toMatch(
      /<td data-label="Last seen">\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ \(500\)<\/td><td data-label="Last hour">4 requests: 2 \(50 %\) refused, 1 \(25 %\) failed<\/td>/,
    );
    expect(page.body).toMatch(/<td data-label="Clock skew">-?[\d.]+ s \(smoothed -?[\d.]+ s, \d{4}-/);
    const [connection] = await t.store.listConnections({ vendor: 'acme-pos' });
    const rotated = await post(`/console/connections/${connection!.id}/rotate`, cookie, { _csrf: csrf });
    expect(rotated.statusCode).toBe(200);
    const secret = /<code id="secret">([^<]+)<\/code>/.exec(rotated.body)?.[1];
    expect(secret).toBeDefined();
    expect(rotated.body).toContain('never shown again');
    expect((await t.store.find('acme-pos', connection!.storeId))?.secrets).toContain(secret);
    expect((await get('/console/connections', cookie)).body).not.toContain(secret!);

    const off = await post(`/console/connections/${connection!.id}/deactivate`, cookie, { _csrf: csrf });
    expect(off.statusCode).toBe(303);
    expect((await t.store.getConnection(connection!.id))?.active).toBe(false);
    const offPage = await get('/console/connections', cookie);
    expect(offPage.body).toContain(`Connection acme-pos/${connection!.storeId} deactivated.`);
    expect(offPage.body).toContain(`aria-label="Activate acme-pos/${connection!.storeId}"`);
    expect((await post(`/console/connections/${connection!.id}/activate`, cookie, { _csrf: csrf })).statusCode).toBe(303);
    expect((await t.store.getConnection(connection!.id))?.active).toBe(true);
    const missing = await post('/console/connections/nope/deactivate', cookie, { _csrf: csrf });
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toContain('role="alert"');
  });

  it('a hostile store id is escaped on every page that shows it', async () => {
    const { cookie } = await signIn();
    const hostile = '<script>alert(1)</script>"\'&';
    const created = await t.admin('POST', '/admin/connections', {
      vendor: 'acme-pos',
      storeId: hostile,
      merchantId: 'm-bean',
      outletId: 'o-downtown',
    });
    expect(created.statusCode).toBe(201);
    await webhook(sale({ id: 'H-1' }), { store: hostile, secret: 'whsec_wrong_secret_0123456789abcdef' });
    for (const url of ['/console/connections', `/console?store=${encodeURIComponent(hostile)}`]) {
      const response = await get(url, cookie);
      expect(response.statusCode, url).toBe(200);
      expect(response.body).not.toContain('<script>alert(1)');
      expect(response.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39;&amp;');
    }
  });

  it('runs lists catalog and reconciliation runs', async () => {
    const { cookie } = await signIn();
    const response = await get('/console/runs', cookie);
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('<h2 id="catalog-heading">Catalog runs</h2>');
    expect(response.body).toContain('<h2 id="reconcile-heading">Reconciliation runs</h2>');
  });
});

describe('the console without an admin token', () => {
  it('is not mounted', async () => {
    const t = await openOperatorApp({ token: undefined });
    try {
      expect((await t.app.inject({ method: 'GET', url: '/console/sign-in' })).statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });
});
