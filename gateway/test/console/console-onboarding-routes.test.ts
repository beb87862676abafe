import { testDialects } from '@loyalty-gateway/storage/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, openOperatorApp, type OperatorApp } from '../../src/testing/open-operator-app.js';
import { escapeHtml } from '../../src/directory/html.js';
import { outletChoice } from '../../src/console/connections-page.js';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/**
 * Every onboarding form of the console, at the route: each POST needs the session's CSRF token,
 * and input the admin API refuses is answered in the page with the admin API's own status and
 * message (asked of /admin with the same input), the form keeping what was typed (never a
 * secret), and nothing changed.
 */
describe.each(testDialects())('the console onboarding forms ($name)', ({ name }) => {
  let t: OperatorApp;
  let cookie: string;
  let csrf: string;
  beforeEach(async () => {
    t = await openOperatorApp({ dialect: name });
    const signedIn = await t.app.inject({
      method: 'POST',
      url: '/console/sign-in',
      headers: FORM,
      payload: new URLSearchParams({ token: ADMIN_TOKEN }).toString(),
    });
    cookie = String(signedIn.headers['set-cookie']).split(';', 1)[0]!;
    csrf = /name="_csrf" value="([^"]+)"/.exec((await get('/console/vendors')).body)![1]!;
  });
  afterEach(() => t.close());

  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: { cookie } });
  const post = (url: string, fields: Record<string, string>, withCsrf = true) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: { ...FORM, cookie },
      payload: new URLSearchParams({ ...(withCsrf ? { _csrf: csrf } : {}), ...fields }).toString(),
    });
  /** What the admin API answers to the same input: the page must say the same, with the same status. */
  async function expectAdminRefusal(page: { statusCode: number; body: string }, method: string, url: string, body: unknown) {
    const admin = await t.admin(method, url, body);
    expect(admin.statusCode).toBeGreaterThanOrEqual(400);
    expect(page.statusCode).toBe(admin.statusCode);
    expect(page.body).toContain(`<p class="error" role="alert">${escapeHtml(admin.json().message as string)}</p>`);
  }
  const state = async () => ({
    vendors: await t.store.listVendors(),
    merchants: await t.engine.listMerchants(),
    connections: await t.store.listConnections(),
    clover: (await t.store.getVendor('clover'))?.settings,
  });

  it('every new form refuses a POST without the CSRF token (403) and changes nothing', async () => {
    const before = await state();
    const [connection] = await t.store.listConnections({ vendor: 'acme-pos' });
    for (const [url, fields] of [
      ['/console/vendors', { slug: 'new-pos', name: 'New POS' }],
      ['/console/vendors/clover/settings', { 'settings.authCode': 'changed', 'settings.apiBaseUrl': 'https://api.eu.clover.com' }],
      ['/console/merchants', { id: 'm-new', name: 'New', currency: 'USD', defaultCountryCode: '1', earnRate: '1', redemptionRate: '100' }],
      ['/console/merchants/m-bean/outlets', { id: 'o-new', name: 'New' }],
      ['/console/connections', { vendor: 'acme-pos', storeId: 'till-new', outlet: outletChoice('m-bean', 'o-downtown') }],
      [`/console/connections/${connection!.id}/rotate`, { overlapSeconds: '0' }],
    ] as const) {
      const refused = await post(url, fields, false);
      expect(refused.statusCode, url).toBe(403);
      expect(refused.body).toContain('nothing was done');
      expect((await post(url, { ...fields, _csrf: `${csrf}x` }, false)).statusCode, url).toBe(403);
    }
    expect(await state()).toEqual(before);
    expect((await t.store.find('acme-pos', connection!.storeId))?.secrets).toHaveLength(1);
  });

  it('a vendor: refused as the admin API refuses it (a bad slug, a missing name, a slug taken), the form kept; then created', async () => {
    const before = await state();
    const bad = await post('/console/vendors', { slug: 'Bad Slug', name: 'Bad' });
    await expectAdminRefusal(bad, 'POST', '/admin/vendors', { slug: 'Bad Slug', name: 'Bad' });
    expect(bad.body).toContain('value="Bad Slug"');
    await expectAdminRefusal(await post('/console/vendors', { slug: 'new-pos', name: '' }), 'POST', '/admin/vendors', { slug: 'new-pos' });
    await expectAdminRefusal(await post('/console/vendors', { slug: 'acme-pos', name: 'Again' }), 'POST', '/admin/vendors', {
      slug: 'acme-pos',
      name: 'Again',
    });
    expect(await state()).toEqual(before);
    const created = await post('/console/vendors', { slug: 'new-pos', name: 'New POS' });
    expect(created.statusCode).toBe(303);
    expect((await t.store.getVendor('new-pos'))?.tier).toBe('generic');
    expect((await get('/console/vendors')).body).toContain('New POS added as a generic vendor (slug new-pos)');
  });

  it("provider settings: the form is the adapter's fields, its secret never shown; refused as PUT refuses; an empty secret keeps the stored one; an auth override stays", async () => {
    const form = await get('/console/vendors/clover/settings');
    expect(form.statusCode).toBe(200);
    expect(form.body).toContain('Clover Auth Code</label>'); // set already: not required
    expect(form.body).toMatch(
      /<input id="f-settings-authCode" name="settings.authCode" type="password" autocomplete="new-password" value=""/,
    );
    expect(form.body).toContain('value="https://api.clover.com"'); // not a secret: shown
    expect(form.body).not.toContain('clover-auth-code-secret');
    expect(form.body).toContain('Set: leave empty to keep it');

    const before = await state();
    const bad = await post('/console/vendors/clover/settings', {
      'settings.authCode': 'typed-secret',
      'settings.apiBaseUrl': 'ftp://api.clover.com',
    });
    await expectAdminRefusal(bad, 'PUT', '/admin/vendors/clover/settings', {
      authCode: 'typed-secret',
      apiBaseUrl: 'ftp://api.clover.com',
    });
    expect(bad.body).toContain('value="ftp://api.clover.com"');
    expect(bad.body).not.toContain('typed-secret');
    expect(await state()).toEqual(before);
    // No adapter: nothing to configure; no vendor at all: not found.
    await expectAdminRefusal(await post('/console/vendors/acme-pos/settings', {}), 'PUT', '/admin/vendors/acme-pos/settings', {});
    await expectAdminRefusal(await post('/console/vendors/no-such/settings', {}), 'PUT', '/admin/vendors/no-such/settings', {});

    const kept = await post('/console/vendors/clover/settings', {
      'settings.authCode': '',
      'settings.apiBaseUrl': 'https://api.eu.clover.com',
    });
    expect(kept.statusCode).toBe(303);
    expect((await t.store.getVendor('clover'))?.settings).toEqual({
      authCode: 'clover-auth-code-secret',
      apiBaseUrl: 'https://api.eu.clover.com',
    });

    const auth = { kind: 'hmac', header: 'X-Relay-Signature', encoding: 'hex', secret: { from: 'settings', key: 'relay' } };
    expect((await t.admin('PUT', '/admin/vendors/clover/settings', { authCode: 'a-code', relay: 'relay-secret', auth })).statusCode).toBe(
      200,
    );
    expect((await get('/console/vendors/clover/settings')).body).toContain('The auth override set through the admin API is kept.');
    expect((await post('/console/vendors/clover/settings', { 'settings.authCode': '', 'settings.apiBaseUrl': '' })).statusCode).toBe(303);
    expect((await t.store.getVendor('clover'))?.settings).toEqual({ authCode: 'a-code', relay: 'relay-secret', auth });
  });

  it('a merchant and an outlet: refused as the admin API refuses them, the form kept; then created', async () => {
    const before = await state();
    const fields = { id: 'm-new', name: 'New', currency: 'USD', defaultCountryCode: '1', earnRate: 'lots', redemptionRate: '100' };
    const bad = await post('/console/merchants', fields);
    await expectAdminRefusal(bad, 'POST', '/admin/merchants', { ...fields, earnRate: 'lots', redemptionRate: 100 });
    expect(bad.body).toContain('value="lots"');
    await expectAdminRefusal(await post('/console/merchants', { ...fields, earnRate: '0.1234567' }), 'POST', '/admin/merchants', {
      ...fields,
      earnRate: 0.1234567,
      redemptionRate: 100,
    });
    await expectAdminRefusal(await post('/console/merchants', { ...fields, id: 'm-bean', earnRate: '1' }), 'POST', '/admin/merchants', {
      ...fields,
      id: 'm-bean',
      earnRate: 1,
      redemptionRate: 100,
    });
    await expectAdminRefusal(
      await post('/console/merchants/m-bean/outlets', { id: 'o-downtown', name: 'Again' }),
      'POST',
      '/admin/merchants/m-bean/outlets',
      {
        id: 'o-downtown',
        name: 'Again',
      },
    );
    await expectAdminRefusal(
      await post('/console/merchants/m-none/outlets', { id: 'o-1', name: 'One' }),
      'POST',
      '/admin/merchants/m-none/outlets',
      {
        id: 'o-1',
        name: 'One',
      },
    );
    const blank = await post('/console/merchants/m-bean/outlets', { id: 'o-typed', name: '' });
    await expectAdminRefusal(blank, 'POST', '/admin/merchants/m-bean/outlets', { id: 'o-typed' });
    expect(blank.body).toContain('value="o-typed"');
    expect(await state()).toEqual(before);

    expect((await post('/console/merchants', { ...fields, earnRate: '1.5' })).statusCode).toBe(303);
    expect((await post('/console/merchants/m-new/outlets', { id: 'o-first', name: 'First' })).statusCode).toBe(303);
    const merchant = (await t.engine.listMerchants()).find((m) => m.id === 'm-new');
    expect(merchant).toMatchObject({ name: 'New', currency: 'USD', outlets: [{ id: 'o-first', name: 'First' }] });
    const page = await get('/console/merchants');
    expect(page.body).toContain('Outlet First (o-first) added to merchant m-new');
    expect(page.body).toContain('data-copy="o-first"');
  });

  it('a connection: refused as the admin API refuses it (taken, an unknown outlet, credentials the adapter needs), never echoing a credential; then created, its secret once', async () => {
    const before = await state();
    const taken = await post('/console/connections', {
      vendor: 'acme-pos',
      storeId: 'store-001',
      outlet: outletChoice('m-bean', 'o-downtown'),
    });
    await expectAdminRefusal(taken, 'POST', '/admin/connections', {
      vendor: 'acme-pos',
      storeId: 'store-001',
      merchantId: 'm-bean',
      outletId: 'o-downtown',
    });
    expect(taken.body).toContain('value="store-001"');
    const nowhere = await post('/console/connections', {
      vendor: 'acme-pos',
      storeId: 'till-9',
      outlet: outletChoice('m-bean', 'o-nowhere'),
    });
    await expectAdminRefusal(nowhere, 'POST', '/admin/connections', {
      vendor: 'acme-pos',
      storeId: 'till-9',
      merchantId: 'm-bean',
      outletId: 'o-nowhere',
    });
    const noOutlet = await post('/console/connections', { vendor: 'acme-pos', storeId: 'till-9', outlet: 'not a choice' });
    await expectAdminRefusal(noOutlet, 'POST', '/admin/connections', { vendor: 'acme-pos', storeId: 'till-9' });
    const clover = { vendor: 'clover', storeId: 'ABCDEFGHJK123', outlet: outletChoice('m-bean', 'o-downtown') };
    const noToken = await post('/console/connections', { ...clover, 'credentials.accessToken': '' });
    await expectAdminRefusal(noToken, 'POST', '/admin/connections', {
      vendor: 'clover',
      storeId: 'ABCDEFGHJK123',
      merchantId: 'm-bean',
      outletId: 'o-downtown',
    });
    expect(noToken.body).toContain('OAuth access token (required)');
    const unknownVendor = await post('/console/connections', {
      vendor: 'no-such',
      storeId: 'x',
      outlet: outletChoice('m-bean', 'o-downtown'),
    });
    await expectAdminRefusal(unknownVendor, 'POST', '/admin/connections', {
      vendor: 'no-such',
      storeId: 'x',
      merchantId: 'm-bean',
      outletId: 'o-downtown',
    });
    expect(unknownVendor.body).toContain('<h1>Connections</h1>');
    expect(await state()).toEqual(before);

    const form = await get('/console/connections/new?vendor=clover');
    expect(form.body).toContain('Clover merchant id'); // the adapter's store id label
    expect(form.body).toMatch(/name="credentials.accessToken" type="password"/);
    const created = await post('/console/connections', { ...clover, 'credentials.accessToken': 'clover-token-value' });
    expect(created.statusCode).toBe(201);
    const secret = /<code id="secret">([^<]+)<\/code>/.exec(created.body)?.[1];
    expect(secret).toMatch(/^whsec_/);
    expect(created.body).not.toContain('clover-token-value');
    const [connection] = await t.store.listConnections({ vendor: 'clover' });
    expect(created.body).toContain(`data-copy="${connection!.id}"`);
    expect(await t.store.getCredentials(connection!.id)).toEqual({ accessToken: 'clover-token-value' });
    expect((await get('/console/connections')).body).not.toContain(secret!);
  });

  it('rotate: the overlap is bounded as the admin API bounds it; the chosen overlap applies', async () => {
    const [connection] = await t.store.listConnections({ vendor: 'acme-pos' });
    const form = await get(`/console/connections/${connection!.id}/rotate`);
    expect(form.body).toContain('<option value="86400">24 hours (the default)</option>');
    const tooLong = await post(`/console/connections/${connection!.id}/rotate`, { overlapSeconds: '99999999' });
    await expectAdminRefusal(tooLong, 'POST', `/admin/connections/${connection!.id}/rotate`, { overlapSeconds: 99999999 });
    await expectAdminRefusal(
      await post(`/console/connections/${connection!.id}/rotate`, { overlapSeconds: 'soon' }),
      'POST',
      `/admin/connections/${connection!.id}/rotate`,
      {
        overlapSeconds: 'soon',
      },
    );
    expect((await t.store.find('acme-pos', connection!.storeId))?.secrets).toHaveLength(1);
    const rotated = await post(`/console/connections/${connection!.id}/rotate`, { overlapSeconds: '3600' });
    expect(rotated.statusCode).toBe(200);
    const until = Date.parse(/<dt>Previous secrets valid until<\/dt><dd>([^<]+)<\/dd>/.exec(rotated.body)![1]!.replace(' ', 'T'));
    expect(Math.abs(until - Date.now() - 3_600_000)).toBeLessThan(60_000);
    expect((await t.store.find('acme-pos', connection!.storeId))?.secrets).toHaveLength(2);
    expect((await get('/console/connections/no-such/rotate')).statusCode).toBe(404);
  });

  it("promote and demote ask first, counting the vendor's stores; demotion says its deliveries will be answered 404", async () => {
    const shop = await t.admin('POST', '/admin/connections', {
      vendor: 'shopify',
      storeId: 'bean-there.myshopify.com',
      merchantId: 'm-bean',
      outletId: 'o-downtown',
    });
    expect(shop.statusCode).toBe(201);
    const demote = await get('/console/vendors/shopify/demote');
    expect(demote.statusCode).toBe(200);
    expect(demote.body).toContain('<h1>Demote Shopify?</h1>');
    expect(demote.body).toContain(
      'answer 404 (vendor_not_featured)</strong>, from all of its <strong>1 store</strong> (1 with an active connection)',
    );
    expect(demote.body).toContain('>Demote Shopify (1 store)</button>');
    expect((await t.store.getVendor('shopify'))?.tier).toBe('featured'); // asking changes nothing
    const vendors = await get('/console/vendors');
    expect(vendors.body).toContain('<td data-label="Stores">1 (1 active)</td>');
    const promote = await get('/console/vendors/acme-pos/promote');
    expect(promote.body).toContain('It affects <strong>3 stores</strong> (2 with an active connection)');
    expect((await get('/console/vendors/clover/promote')).body).toContain('No store is connected to Clover yet');
    expect((await get('/console/vendors/no-such/promote')).statusCode).toBe(404);
  });
});
