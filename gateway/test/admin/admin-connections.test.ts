import { testDialects } from '@loyalty-gateway/storage/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bodyOf, headersFor } from '../../src/testing/gateway-fixture.js';
import { sale } from '../../src/testing/test-seed.js';
import { openOperatorApp, type OperatorApp } from '../../src/testing/open-operator-app.js';

const newConnection = {
  vendor: 'clover',
  storeId: 'MERCHANT-NEW-1',
  merchantId: 'm-bean',
  outletId: 'o-uptown',
  credentials: { accessToken: 'clover-oauth-token-aa' },
};

describe.each(testDialects())('admin API: connections ($name)', ({ name }) => {
  let t: OperatorApp;
  beforeEach(async () => {
    t = await openOperatorApp({ dialect: name });
  });
  afterEach(() => t.close());

  it('create → rotate → list: each secret shown once, never in a listing or a log line', async () => {
    const created = await t.admin('POST', '/admin/connections', {
      ...newConnection,
      credentials: { accessToken: 'clover-oauth-token-zz' },
    });
    expect(created.statusCode).toBe(201);
    const { connection, secret } = created.json() as { connection: { id: string }; secret: string };
    expect(secret).toMatch(/^whsec_/);
    expect(created.json()).toMatchObject({
      connection: { vendor: 'clover', storeId: 'MERCHANT-NEW-1', active: true, secretCount: 1, hasCredentials: true },
    });
    expect(created.body).not.toContain('clover-oauth-token-zz');
    expect(await t.store.find('clover', 'MERCHANT-NEW-1')).toMatchObject({ secrets: [secret] });

    const rotated = await t.admin('POST', `/admin/connections/${connection.id}/rotate`, { overlapSeconds: 3600 });
    expect(rotated.statusCode).toBe(200);
    const second = (rotated.json() as { secret: string }).secret;
    expect(second).not.toBe(secret);
    expect(rotated.json()).toMatchObject({ connection: { id: connection.id, secretCount: 2 } });
    const deadline = Date.parse((rotated.json() as { previousSecretsValidUntil: string }).previousSecretsValidUntil);
    expect(Math.abs(deadline - (Date.now() + 3_600_000))).toBeLessThan(5_000);
    expect(new Set((await t.store.find('clover', 'MERCHANT-NEW-1'))?.secrets)).toEqual(new Set([secret, second]));

    const listed = await t.admin('GET', '/admin/connections?vendor=clover');
    expect(listed.statusCode).toBe(200);
    const connections = (listed.json() as { connections: Array<Record<string, unknown>> }).connections;
    expect(connections).toHaveLength(1);
    expect(Object.keys(connections[0]!).sort()).toEqual([
      'active',
      'activity',
      'clockSkew',
      'createdAt',
      'hasCredentials',
      'id',
      'merchantId',
      'outletId',
      'secretCount',
      'storeId',
      'vendor',
    ]);
    const everything = [
      listed.body,
      (await t.admin('GET', '/admin/connections')).body,
      (await t.admin('GET', '/admin/vendors')).body,
      ...t.logs,
    ].join('\n');
    for (const shown of [secret, second, 'clover-oauth-token-zz']) expect(everything).not.toContain(shown);
  });

  it("shows each connection's last answer and last hour as this process answered them: accepted, refused (a wrong secret, a stale clock) and failed", async () => {
    const send = (id: string, options: Parameters<typeof headersFor>[1] = {}) => {
      const raw = bodyOf(sale({ id }));
      return t.app.inject({ method: 'POST', url: '/webhooks/generic', headers: headersFor(raw, options), payload: raw });
    };
    const listed = async () =>
      (
        (await t.admin('GET', '/admin/connections?vendor=acme-pos')).json() as {
          connections: Array<{ storeId: string; activity: unknown }>;
        }
      ).connections.find((c) => c.storeId === 'store-001')!.activity;
    expect(await listed()).toBeNull();
    expect((await send('A-1')).statusCode).toBe(200);
    expect((await send('A-2', { secret: 'whsec_wrong_secret_0123456789abcdef' })).statusCode).toBe(401);
    expect((await send('A-3', { timestamp: Math.floor(Date.now() / 1000) - 900 })).statusCode).toBe(401);
    expect((await send('A-4', { store: 'no-such-store' })).statusCode).toBe(401); // no connection: nobody's activity
    const activity = (await listed()) as { lastSeenAt: string; lastStatus: number; lastHour: unknown };
    expect(activity).toEqual({ lastSeenAt: expect.any(String), lastStatus: 401, lastHour: { requests: 3, refused: 2, failed: 0 } });
    expect(Math.abs(Date.parse(activity.lastSeenAt) - Date.now())).toBeLessThan(5_000);
  });

  it('a NUL character or an unpaired surrogate in an id, a name or a filter is 422 naming it, and changes nothing (PostgreSQL answered 500)', async () => {
    const refused = [
      await t.admin('POST', '/admin/connections', { ...newConnection, storeId: 'STORE-\u0000-1' }),
      await t.admin('POST', '/admin/connections', { ...newConnection, merchantId: 'm-\ud800' }),
      await t.admin('POST', '/admin/vendors', { slug: 'acme-new', name: 'Acme \u0000 POS' }),
      await t.admin('GET', '/admin/connections?merchantId=m-%00'),
    ];
    expect(refused.map((r) => r.statusCode)).toEqual([422, 422, 422, 422]);
    expect(refused.map((r) => (r.json() as { fields: Array<{ path: string }> }).fields.map((f) => f.path))).toEqual([
      ['storeId'],
      ['merchantId'],
      ['name'],
      ['merchantId'],
    ]);
    expect((await t.admin('GET', '/admin/connections?vendor=clover')).json()).toMatchObject({ connections: [] });
    expect((await t.admin('GET', '/admin/vendors')).body).not.toContain('acme-new');
  });

  it('rotation with overlap 0 ends the previous secret at once; the default overlap is a day', async () => {
    const { connection, secret } = (await t.admin('POST', '/admin/connections', newConnection)).json() as {
      connection: { id: string };
      secret: string;
    };
    const byDefault = (await t.admin('POST', `/admin/connections/${connection.id}/rotate`)).json() as {
      previousSecretsValidUntil: string;
      secret: string;
    };
    expect(Math.abs(Date.parse(byDefault.previousSecretsValidUntil) - (Date.now() + 86_400_000))).toBeLessThan(5_000);
    const now = (await t.admin('POST', `/admin/connections/${connection.id}/rotate`, { overlapSeconds: 0 })).json() as { secret: string };
    const accepted = (await t.store.find('clover', 'MERCHANT-NEW-1'))?.secrets ?? [];
    expect(accepted).toContain(now.secret);
    expect(accepted).not.toContain(secret);
    expect(accepted).not.toContain(byDefault.secret);
    const bad = await t.admin('POST', `/admin/connections/${connection.id}/rotate`, { overlapSeconds: -1 });
    expect(bad.json()).toMatchObject({ statusCode: 422, code: 'validation_failed', fields: [{ path: 'overlapSeconds' }] });
  });

  it('409 connection_exists, 404 vendor_not_found, strict bodies and adapter-checked credentials', async () => {
    expect((await t.admin('POST', '/admin/connections', newConnection)).statusCode).toBe(201);
    expect((await t.admin('POST', '/admin/connections', newConnection)).json()).toMatchObject({
      statusCode: 409,
      code: 'connection_exists',
    });
    expect((await t.admin('POST', '/admin/connections', { ...newConnection, vendor: 'ghost' })).json()).toMatchObject({
      statusCode: 404,
      code: 'vendor_not_found',
    });
    const { storeId: _storeId, ...noStore } = newConnection;
    expect((await t.admin('POST', '/admin/connections', { ...noStore, secret: 'mine' })).json()).toMatchObject({
      statusCode: 400,
      code: 'missing_field',
      fields: expect.arrayContaining([
        { path: 'storeId', message: 'is required' },
        { path: 'secret', message: 'unknown field' },
      ]),
    });
    const badCredentials = await t.admin('POST', '/admin/connections', {
      ...newConnection,
      storeId: 'M2',
      credentials: { token: 'tok-secret-1' },
    });
    expect(badCredentials.json()).toMatchObject({ statusCode: 422, code: 'validation_failed' });
    expect((badCredentials.json() as { fields: Array<{ path: string }> }).fields.map((f) => f.path).sort()).toEqual([
      'credentials.accessToken',
      'credentials.token',
    ]);
    expect(badCredentials.body).not.toContain('tok-secret-1');
  });

  it("refuses a connection without the credentials its vendor's adapter requires (every event would be a 500)", async () => {
    const { credentials: _none, ...withoutCredentials } = newConnection;
    const refused = await t.admin('POST', '/admin/connections', withoutCredentials);
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({
      code: 'validation_failed',
      message: 'The credentials do not fit the Clover adapter: credentials.accessToken is required.',
      fields: [{ path: 'credentials.accessToken', message: 'is required' }],
    });
    expect(await t.store.find('clover', newConnection.storeId)).toBeNull();
    // A vendor without an adapter needs none; Shopify's token is optional (only its catalog pull uses it).
    expect(
      (
        await t.admin('POST', '/admin/connections', {
          vendor: 'acme-pos',
          storeId: 'store-new',
          merchantId: 'm-bean',
          outletId: 'o-uptown',
        })
      ).statusCode,
    ).toBe(201);
    expect(
      (
        await t.admin('POST', '/admin/connections', {
          vendor: 'shopify',
          storeId: 'new-shop.myshopify.com',
          merchantId: 'm-bean',
          outletId: 'o-uptown',
        })
      ).statusCode,
    ).toBe(201);
  });

  it('refuses a connection to a merchant or outlet the loyalty engine does not have (every event would be a 500)', async () => {
    const noMerchant = await t.admin('POST', '/admin/connections', {
      ...newConnection,
      merchantId: 'no-such-merchant',
      outletId: 'no-such-outlet',
    });
    expect(noMerchant.statusCode).toBe(422);
    expect(noMerchant.json()).toMatchObject({
      code: 'validation_failed',
      fields: [{ path: 'merchantId', message: 'the loyalty engine has no merchant "no-such-merchant"' }],
    });
    const noOutlet = await t.admin('POST', '/admin/connections', { ...newConnection, outletId: 'no-such-outlet' });
    expect(noOutlet.json()).toMatchObject({
      statusCode: 422,
      fields: [{ path: 'outletId', message: 'merchant "m-bean" has no outlet "no-such-outlet" in the loyalty engine' }],
    });
    expect(await t.store.find('clover', newConnection.storeId)).toBeNull();
    expect((await t.admin('POST', '/admin/connections', newConnection)).statusCode).toBe(201);
  });

  it('refuses a Shopify connection whose store id is not a myshopify.com domain', async () => {
    const refused = await t.admin('POST', '/admin/connections', {
      vendor: 'shopify',
      storeId: 'evil.example/x?',
      merchantId: 'm-bean',
      outletId: 'o-uptown',
      credentials: { accessToken: 'shpat_x' },
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({
      code: 'validation_failed',
      fields: [{ path: 'storeId', message: expect.stringContaining('myshopify.com domain') }],
    });
    expect(await t.store.find('shopify', 'evil.example/x?')).toBeNull();
  });

  it('deactivates and activates; replaces credentials; filters the list by merchant', async () => {
    const { connection } = (await t.admin('POST', '/admin/connections', newConnection)).json() as { connection: { id: string } };
    const off = await t.admin('POST', `/admin/connections/${connection.id}/deactivate`);
    expect(off.json()).toMatchObject({ connection: { id: connection.id, active: false } });
    expect(await t.store.find('clover', 'MERCHANT-NEW-1')).toMatchObject({ active: false });
    expect((await t.admin('POST', `/admin/connections/${connection.id}/activate`)).json()).toMatchObject({ connection: { active: true } });

    const creds = await t.admin('PUT', `/admin/connections/${connection.id}/credentials`, { accessToken: 'replaced-token-q' });
    expect(creds.json()).toMatchObject({ connection: { hasCredentials: true } });
    expect(creds.body).not.toContain('replaced-token-q');
    expect(await t.store.getCredentials(connection.id)).toEqual({ accessToken: 'replaced-token-q' });
    expect((await t.admin('PUT', `/admin/connections/${connection.id}/credentials`, { accessToken: 7 })).json()).toMatchObject({
      statusCode: 422,
      fields: [{ path: 'accessToken' }],
    });

    expect((await t.admin('POST', '/admin/connections/nope/deactivate')).json()).toMatchObject({
      statusCode: 404,
      code: 'connection_not_found',
    });
    expect((await t.admin('POST', '/admin/connections/nope/rotate')).json()).toMatchObject({
      statusCode: 404,
      code: 'connection_not_found',
    });
    const byMerchant = (await t.admin('GET', '/admin/connections?merchantId=m-bean')).json() as { connections: unknown[] };
    expect(byMerchant.connections).toHaveLength(4); // the three seeded acme-pos connections and this one
    expect((await t.admin('GET', '/admin/connections?merchantId=nobody')).json()).toEqual({ connections: [] });
    expect((await t.admin('GET', '/admin/connections?store=x')).json()).toMatchObject({
      statusCode: 422,
      fields: [{ path: 'store', message: 'unknown field' }],
    });
  });
});
