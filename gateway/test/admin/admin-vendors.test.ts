import { createTestPki } from '@loyalty-gateway/core/testing';
import { testDialects } from '@loyalty-gateway/storage/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, openOperatorApp, type OperatorApp } from '../../src/testing/open-operator-app.js';

describe.each(testDialects())('admin API: auth and vendors ($name)', ({ name }) => {
  let t: OperatorApp;
  beforeEach(async () => {
    t = await openOperatorApp({ dialect: name });
  });
  afterEach(() => t.close());

  it('refuses a missing, malformed or wrong token with 401 admin_unauthorized (Error body)', async () => {
    for (const token of [null, 'wrong-token', `${ADMIN_TOKEN}x`, ADMIN_TOKEN.slice(0, -1)]) {
      const response = await t.admin('GET', '/admin/vendors', undefined, token);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ statusCode: 401, code: 'admin_unauthorized', requestId: expect.any(String) });
      expect(response.headers['www-authenticate']).toMatch(/^Bearer/);
    }
    const basic = await t.app.inject({ method: 'GET', url: '/admin/vendors', headers: { authorization: `Basic ${ADMIN_TOKEN}` } });
    expect(basic.statusCode).toBe(401);
  });

  it('lists vendors with their tier, whether an adapter exists and whether settings are stored (never the settings)', async () => {
    const response = await t.admin('GET', '/admin/vendors');
    expect(response.statusCode).toBe(200);
    const { vendors } = response.json() as { vendors: Array<Record<string, unknown>> };
    // Every registered adapter shows, with or without a vendor row (Square has none here): product sees what can be promoted.
    expect(vendors.map((v) => [v.slug, v.exists])).toEqual([
      ['acme-pos', true],
      ['clover', true],
      ['other-pos', true],
      ['shopify', true],
      ['square', false],
      ['woocommerce', false],
    ]);
    expect(vendors.find((v) => v.slug === 'clover')).toEqual({
      slug: 'clover',
      name: 'Clover',
      tier: 'generic',
      featuredAdapter: true,
      hasSettings: true,
      catalogSchedule: '20 3 * * *',
      catalogScheduleSource: 'adapter',
      exists: true,
    });
    expect(vendors.find((v) => v.slug === 'square')).toMatchObject({
      name: 'Square',
      tier: 'generic',
      featuredAdapter: true,
      hasSettings: false,
      exists: false,
    });
    expect(vendors.find((v) => v.slug === 'acme-pos')).toMatchObject({
      tier: 'generic',
      featuredAdapter: false,
      hasSettings: false,
      catalogSchedule: null,
      catalogScheduleSource: null,
    });
    expect(response.body).not.toContain('clover-auth-code-secret');
  });

  it('POST /admin/vendors onboards without a seed file: creates a generic vendor (201), refuses a taken or reserved slug, renames', async () => {
    const created = await t.admin('POST', '/admin/vendors', { slug: 'new-pos', name: 'New POS' });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      vendor: { slug: 'new-pos', name: 'New POS', tier: 'generic', featuredAdapter: false, hasSettings: false, exists: true },
    });
    expect(await t.store.getVendor('new-pos')).toMatchObject({ name: 'New POS', tier: 'generic' });
    expect((await t.admin('POST', '/admin/vendors', { slug: 'new-pos', name: 'Again' })).json()).toMatchObject({
      statusCode: 409,
      code: 'vendor_exists',
    });
    const bad = await t.admin('POST', '/admin/vendors', { slug: 'Bad Slug', name: '', extra: 1 });
    expect(bad.statusCode).toBe(422);
    expect((bad.json() as { fields: Array<{ path: string }> }).fields.map((f) => f.path).sort()).toEqual(['extra', 'name', 'slug']);
    expect((await t.admin('POST', '/admin/vendors', { slug: 'generic', name: 'Generic' })).statusCode).toBe(422);
    expect((await t.admin('POST', '/admin/vendors', { name: 'No slug' })).json()).toMatchObject({ code: 'missing_field' });

    const renamed = await t.admin('PATCH', '/admin/vendors/new-pos', { name: 'New POS Cloud' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ vendor: { slug: 'new-pos', name: 'New POS Cloud' } });
    expect((await t.admin('PATCH', '/admin/vendors/ghost', { name: 'x' })).json()).toMatchObject({
      statusCode: 404,
      code: 'vendor_not_found',
    });
  });

  it('promotes a vendor with an adapter (visible at once), refuses one without, and demotes', async () => {
    const promoted = await t.admin('POST', '/admin/vendors/clover/promote');
    expect(promoted.statusCode).toBe(200);
    expect(promoted.json()).toMatchObject({ vendor: { slug: 'clover', tier: 'featured', featuredAdapter: true } });
    expect((await t.store.getVendor('clover'))?.tier).toBe('featured');

    const refused = await t.admin('POST', '/admin/vendors/acme-pos/promote', {});
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'adapter_not_registered', message: expect.stringContaining('acme-pos') });
    expect((await t.store.getVendor('acme-pos'))?.tier).toBe('generic');

    const demoted = await t.admin('POST', '/admin/vendors/clover/demote');
    expect(demoted.json()).toMatchObject({ vendor: { slug: 'clover', tier: 'generic' } });
    expect((await t.store.getVendor('clover'))?.tier).toBe('generic');

    expect((await t.admin('POST', '/admin/vendors/nobody/demote')).json()).toMatchObject({ statusCode: 404, code: 'vendor_not_found' });
    expect((await t.admin('POST', '/admin/vendors/clover/promote', { now: true })).json()).toMatchObject({
      statusCode: 422,
      code: 'validation_failed',
      fields: [{ path: 'now', message: 'unknown field' }],
    });
  });

  it('refuses to promote a vendor whose provider settings its adapter cannot use (its door could only answer 500)', async () => {
    await t.store.ensureVendor({ slug: 'square', name: 'Square', tier: 'generic' });
    const refused = await t.admin('POST', '/admin/vendors/square/promote');
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({
      code: 'invalid_settings',
      message:
        'Square cannot be promoted until its provider settings fit its adapter (none are set): PUT /admin/vendors/square/settings first.',
      fields: expect.arrayContaining([
        { path: 'signatureKey', message: expect.any(String) },
        { path: 'notificationUrl', message: expect.any(String) },
      ]),
    });
    expect((await t.store.getVendor('square'))?.tier).toBe('generic');
    expect((await t.app.inject({ method: 'GET', url: '/directory/square' })).statusCode).toBe(404);
  });

  it('a refused promotion writes nothing, not even the vendor row', async () => {
    expect(await t.store.getVendor('square')).toBeFalsy();
    expect((await t.admin('POST', '/admin/vendors/square/promote')).json()).toMatchObject({ statusCode: 422, code: 'invalid_settings' });
    expect(await t.store.getVendor('square')).toBeFalsy();
    // Still listed only as a registered adapter without a vendor row.
    expect((await t.admin('GET', '/admin/vendors')).json().vendors.find((v: { slug: string }) => v.slug === 'square')).toMatchObject({
      exists: false,
    });
  });

  it('a registered adapter whose vendor row is missing: settings create it (generic), then it can be promoted', async () => {
    expect((await t.admin('POST', '/admin/vendors/square/promote')).json()).toMatchObject({ statusCode: 422, code: 'invalid_settings' });
    const settings = await t.admin('PUT', '/admin/vendors/square/settings', {
      signatureKey: 'sq-key',
      notificationUrl: 'https://gw.example.com/webhooks/square',
    });
    expect(settings.json()).toMatchObject({ vendor: { slug: 'square', name: 'Square', tier: 'generic', hasSettings: true } });
    const response = await t.admin('POST', '/admin/vendors/square/promote');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ vendor: { slug: 'square', name: 'Square', tier: 'featured', hasSettings: true } });
  });

  it('replaces provider settings after the adapter validates them, and never echoes them', async () => {
    const ok = await t.admin('PUT', '/admin/vendors/clover/settings', {
      authCode: 'new-auth-code-value',
      apiBaseUrl: 'https://api.eu.clover.com',
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ vendor: { slug: 'clover', hasSettings: true } });
    expect(ok.body).not.toContain('new-auth-code-value');
    expect((await t.store.getVendor('clover'))?.settings).toEqual({
      authCode: 'new-auth-code-value',
      apiBaseUrl: 'https://api.eu.clover.com',
    });

    const bad = await t.admin('PUT', '/admin/vendors/clover/settings', { authCode: '', apiBaseUrl: 'not a url', extra: 'x-secret-x' });
    expect(bad.statusCode).toBe(422);
    const error = bad.json() as { code: string; fields: Array<{ path: string }> };
    expect(error.code).toBe('invalid_settings');
    expect(error.fields.map((f) => f.path).sort()).toEqual(['apiBaseUrl', 'authCode', 'extra']);
    expect(bad.body).not.toContain('x-secret-x');
    expect((await t.store.getVendor('clover'))?.settings).toMatchObject({ authCode: 'new-auth-code-value' });

    expect((await t.admin('PUT', '/admin/vendors/acme-pos/settings', { a: 1 })).json()).toMatchObject({
      statusCode: 409,
      code: 'adapter_not_registered',
    });
    expect((await t.admin('PUT', '/admin/vendors/ghost/settings', { a: 1 })).json()).toMatchObject({
      statusCode: 404,
      code: 'vendor_not_found',
    });
    expect((await t.admin('PUT', '/admin/vendors/clover/settings', '{"authCode":')).json()).toMatchObject({
      statusCode: 400,
      code: 'malformed_json',
    });
    expect(t.logs.join('\n')).not.toContain('new-auth-code-value');
  });

  it('stored settings with a key this build does not know do not block promotion (ignored), while PUT still refuses unknown keys by name', async () => {
    await t.store.ensureVendor({ slug: 'square', name: 'Square', tier: 'generic' });
    const settings = { signatureKey: 'sq-key', notificationUrl: 'https://gw.example.com/webhooks/square' };
    await t.store.setVendorSettings('square', { ...settings, legacyOption: true });
    expect((await t.admin('POST', '/admin/vendors/square/promote')).json()).toMatchObject({ vendor: { slug: 'square', tier: 'featured' } });
    const typo = await t.admin('PUT', '/admin/vendors/square/settings', { ...settings, apiBaseURL: 'https://connect.squareupsandbox.com' });
    expect(typo.statusCode).toBe(422);
    expect(typo.json()).toMatchObject({ code: 'invalid_settings', fields: [{ path: 'apiBaseURL', message: 'unknown field' }] });
  });

  it('refuses settings whose auth scheme could never verify, naming the field', async () => {
    const relay = { kind: 'hmac', header: 'X-Relay-Signature', secret: { from: 'settings', key: 'relayKeyy' } };
    const typo = await t.admin('PUT', '/admin/vendors/clover/settings', { authCode: 'c', relayKey: 'k', auth: relay });
    expect(typo.statusCode).toBe(422);
    expect(typo.json()).toMatchObject({
      code: 'invalid_settings',
      fields: expect.arrayContaining([{ path: 'relayKeyy', message: expect.stringContaining('is required by the auth scheme') }]),
    });
    const noTimestamp = await t.admin('PUT', '/admin/vendors/clover/settings', {
      authCode: 'c',
      auth: { ...relay, signed: 'timestamp+body', secret: { from: 'settings', key: 'authCode' } },
    });
    expect(noTimestamp.json()).toMatchObject({ statusCode: 422, fields: [{ path: 'auth.timestampHeader' }] });
    const garbageCa = await t.admin('PUT', '/admin/vendors/clover/settings', {
      authCode: 'c',
      auth: { kind: 'mtls', mode: 'proxy', caPem: 'garbage', trustedProxies: ['10.0.0.5'] },
    });
    expect(garbageCa.json()).toMatchObject({ statusCode: 422, fields: [{ path: 'auth.caPem' }] });
    expect((await t.store.getVendor('clover'))?.settings).toMatchObject({ authCode: 'clover-auth-code-secret' });
  });

  it('lists the notes the featured door recorded (handshakes), newest first', async () => {
    await t.notes.recordVendorNote('clover', { kind: 'clover.handshake', value: 'verif-1', note: 'paste into Clover' });
    await t.notes.recordVendorNote('shopify', { kind: 'shopify.test', value: 'x' });
    const response = await t.admin('GET', '/admin/vendors/clover/notes');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      notes: [{ vendor: 'clover', kind: 'clover.handshake', value: 'verif-1', note: 'paste into Clover' }],
    });
    expect((await t.admin('GET', '/admin/vendors/ghost/notes')).statusCode).toBe(404);
  });
});

describe('admin API on a gateway without an HTTPS listener', () => {
  it('refuses mTLS direct settings (no listener can ask for the client certificate); proxy is fine', async () => {
    const pki = createTestPki('Provider CA');
    const t = await openOperatorApp({ tlsListener: false });
    try {
      const direct = await t.admin('PUT', '/admin/vendors/clover/settings', {
        authCode: 'c',
        auth: { kind: 'mtls', mode: 'direct', caPem: pki.caPem },
      });
      expect(direct.statusCode).toBe(422);
      expect(direct.json()).toMatchObject({
        code: 'invalid_settings',
        fields: [{ path: 'auth.mode', message: expect.stringContaining('GATEWAY_TLS_PORT') }],
      });
      const proxy = await t.admin('PUT', '/admin/vendors/clover/settings', {
        authCode: 'c',
        auth: { kind: 'mtls', mode: 'proxy', caPem: pki.caPem, trustedProxies: ['10.0.0.5'] },
      });
      expect(proxy.statusCode).toBe(200);
    } finally {
      await t.close();
      pki.dispose();
    }
  });

  it('refuses to promote a vendor whose stored settings are mTLS direct (seeded, or written on a gateway that had the listener)', async () => {
    const pki = createTestPki('Provider CA');
    const t = await openOperatorApp({ tlsListener: false });
    try {
      await t.store.setVendorSettings('clover', { authCode: 'c', auth: { kind: 'mtls', mode: 'direct', caPem: pki.caPem } });
      const refused = await t.admin('POST', '/admin/vendors/clover/promote');
      expect(refused.statusCode).toBe(422);
      expect(refused.json()).toMatchObject({
        code: 'invalid_settings',
        fields: [{ path: 'auth.mode', message: expect.stringContaining('GATEWAY_TLS_PORT') }],
      });
      expect((await t.store.getVendor('clover'))?.tier).toBe('generic');
    } finally {
      await t.close();
      pki.dispose();
    }
  });
});

describe('admin API without a token (non-production)', () => {
  it('is not mounted: every /admin route answers 404 not_found, with or without a bearer', async () => {
    const t = await openOperatorApp({ token: undefined });
    try {
      for (const [method, url] of [
        ['GET', '/admin/vendors'],
        ['POST', '/admin/vendors/clover/promote'],
        ['GET', '/admin/connections'],
      ] as const) {
        const response = await t.admin(method, url);
        expect(response.statusCode).toBe(404);
        expect(response.json()).toMatchObject({ statusCode: 404, code: 'not_found' });
      }
      expect((await t.store.getVendor('clover'))?.tier).toBe('generic');
    } finally {
      await t.close();
    }
  });
});
